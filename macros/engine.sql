{#-
    Engine-specific SQL, in one place. Each macro dispatches on the adapter (dbt-utils'
    pattern): `default__` is the DuckDB form, the one the models are written and linted in;
    `spark__` is the form dbt-spark needs. Models and tests call only the dispatching name.
-#}

{#- A SQL string literal for a value from vars or arguments, with quotes escaped, so an
    operator's taxonomy or venue name can never change the statement. -#}
{% macro sql_string(value) -%}
    {{ return(adapter.dispatch('sql_string', 'paperrank')(value)) }}
{%- endmacro %}

{% macro default__sql_string(value) -%}
    '{{ value | string | replace("'", "''") }}'
{%- endmacro %}

{#- Spark reads backslashes in literals as escapes, so they are escaped first, then quotes. -#}
{% macro spark__sql_string(value) -%}
    '{{ value | string | replace("\\", "\\\\") | replace("'", "\\'") }}'
{%- endmacro %}

{#- Every column of `relation` (a relation or a CTE's name) but `columns`, for a select list. -#}
{% macro star_except(relation, columns) -%}
    {{ return(adapter.dispatch('star_except', 'paperrank')(relation, columns)) }}
{%- endmacro %}

{% macro default__star_except(relation, columns) -%}
    {{ relation }}.* exclude ({{ columns | join(', ') }})
{%- endmacro %}

{% macro spark__star_except(relation, columns) -%}
    {{ relation }}.* except ({{ columns | join(', ') }})
{%- endmacro %}

{#- Whether `expression` matches the regular expression `pattern` (a Jinja string) in full. -#}
{% macro regex_full_match(expression, pattern) -%}
    {{ return(adapter.dispatch('regex_full_match', 'paperrank')(expression, pattern)) }}
{%- endmacro %}

{% macro default__regex_full_match(expression, pattern) -%}
    regexp_full_match({{ expression }}, {{ sql_string(pattern) }})
{%- endmacro %}

{#- rlike finds a match anywhere; \A and \z anchor it to the whole value (`$` would also
    match before a final newline). -#}
{% macro spark__regex_full_match(expression, pattern) -%}
    ({{ expression }} rlike {{ sql_string('\\A(?:' ~ pattern ~ ')\\z') }})
{%- endmacro %}

{#- A deterministic 60-bit integer from `expression` (the first 15 hex digits of the md5 of its
    text), the same on every engine, for reproducible sampling or bucketing: the engines'
    own hash() functions differ. -#}
{% macro md5_number(expression) -%}
    {{ return(adapter.dispatch('md5_number', 'paperrank')(expression)) }}
{%- endmacro %}

{% macro default__md5_number(expression) -%}
    cast(('0x' || left(md5(cast({{ expression }} as varchar)), 15)) as bigint)
{%- endmacro %}

{% macro spark__md5_number(expression) -%}
    cast(conv(left(md5(cast({{ expression }} as string)), 15), 16, 10) as bigint)
{%- endmacro %}

{#- Write the rows of `query` (in its order) to the CSV file `path`, with a header, creating
    the file's folder and its parents. -#}
{% macro write_csv(query, path) -%}
    {{ return(adapter.dispatch('write_csv', 'paperrank')(query, path)) }}
{%- endmacro %}

{% macro default__write_csv(query, path) -%}
    {%- if '/' in path -%}
        {{ _ensure_folder(path.rsplit('/', 1)[0]) }}
    {%- endif -%}
    {%- do run_query('copy (' ~ query ~ ') to ' ~ sql_string(path) ~ ' (format csv, header)') -%}
{%- endmacro %}

{#- DuckDB's COPY creates no folders, but a partitioned COPY creates its target folder (one
    level); an empty one, level by level, makes the whole path and leaves no file behind. -#}
{% macro _ensure_folder(folder) %}
    {%- set parts = folder.split('/') -%}
    {%- for i in range(1, parts | length + 1) -%}
        {%- set prefix = parts[:i] | join('/') -%}
        {%- if prefix not in ('', '.', '..') -%}
            {%- do run_query(
                "copy (select 1 as x, 'p' as p where false) to " ~ sql_string(prefix)
                ~ " (format csv, partition_by (p), overwrite_or_ignore)") -%}
        {%- endif -%}
    {%- endfor -%}
{% endmacro %}

{#- Spark writes a folder of part files, not one named file, so the rows come back to dbt
    (one category at a time: small) and agate writes the file, creating its folders. Every
    value is cast to text in Spark first, so booleans and numbers keep Spark's spelling
    (true/false, shortest digits) instead of agate's (True, Decimal), and nulls stay empty. -#}
{% macro spark__write_csv(query, path) -%}
    {%- set columns = run_query('select * from (' ~ query ~ ') as q limit 0').column_names -%}
    {%- set casts = [] -%}
    {%- for column in columns -%}
        {%- do casts.append('cast(`' ~ column ~ '` as string) as `' ~ column ~ '`') -%}
    {%- endfor -%}
    {%- set rows = run_query('select ' ~ casts | join(', ') ~ ' from (' ~ query ~ ') as q') -%}
    {%- do rows.to_csv(path) -%}
{%- endmacro %}

{#- dbt-spark's session seed loader pastes values into the statement unescaped: an
    apostrophe breaks the insert and an empty cell becomes the text 'None'. This one writes
    every value as an escaped literal (sql_string) and empty cells as real nulls. -#}
{% macro spark__load_csv_rows(model, agate_table) %}
    {%- set column_override = model['config'].get('column_types', {}) -%}
    {%- set types = [] -%}
    {%- for column in agate_table.column_names -%}
        {%- do types.append(column_override.get(
            column, adapter.convert_type(agate_table, loop.index0))) -%}
    {%- endfor -%}
    {%- set statements = [] -%}
    {%- for chunk in agate_table.rows | batch(get_batch_size()) -%}
        {%- set values = [] -%}
        {%- for row in chunk -%}
            {%- set cells = [] -%}
            {%- for value in row -%}
                {%- if value is none -%}
                    {%- do cells.append('cast(null as ' ~ types[loop.index0] ~ ')') -%}
                {%- else -%}
                    {%- do cells.append('cast(' ~ sql_string(value) ~ ' as ' ~ types[loop.index0] ~ ')') -%}
                {%- endif -%}
            {%- endfor -%}
            {%- do values.append('(' ~ cells | join(', ') ~ ')') -%}
        {%- endfor -%}
        {%- set sql = 'insert into ' ~ this.render() ~ ' values ' ~ values | join(',\n') -%}
        {%- do adapter.add_query(sql, abridge_sql_log=true) -%}
        {%- do statements.append(sql) -%}
    {%- endfor -%}
    {{ return(statements[0] if statements else '') }}
{% endmacro %}
