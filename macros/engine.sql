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

{#-
    Unsigned 64-bit arithmetic, for the random streams of macros/splitmix64.sql. DuckDB has
    UBIGINT; Spark has no unsigned type, so there a value is the BIGINT with the same 64 bits
    (two's complement): xor and logical shifts are the same bit operations, and products and
    remainders go through decimal(38, 0), which holds any product of two signed 64-bit values,
    so every draw is the same on both engines, bit for bit. In DuckDB, UBIGINT products overflow
    with an error, so they run in UHUGEINT and are masked back to 64 bits (a `%` there would be
    100x slower), and `%` always takes two UBIGINTs (UBIGINT % BIGINT widens to 128 bits).
-#}

{#- `value` (a whole number from 0 to 2^63 - 1, or a column of them) as an unsigned 64-bit value. -#}
{% macro uint64(value) -%}
    {{ return(adapter.dispatch('uint64', 'paperrank')(value)) }}
{%- endmacro %}

{% macro default__uint64(value) -%}
    cast({{ value }} as ubigint)
{%- endmacro %}

{% macro spark__uint64(value) -%}
    cast({{ value }} as bigint)
{%- endmacro %}

{#- The key of a text: the first 8 bytes of its md5 digest read little-endian, an unsigned
    64-bit value (DuckDB's md5_number is the whole digest read that way). -#}
{% macro md5_key64(text) -%}
    {{ return(adapter.dispatch('md5_key64', 'paperrank')(text)) }}
{%- endmacro %}

{% macro default__md5_key64(text) -%}
    (md5_number({{ text }}) & 18446744073709551615::uhugeint)::ubigint
{%- endmacro %}

{#- the 16 hex digits, bytes reversed, read as a signed 64-bit number (conv to base -10) -#}
{% macro spark__md5_key64(text) -%}
    {%- set digest = 'md5(cast(' ~ text ~ ' as string))' -%}
    {%- set pairs = [] -%}
    {%- for byte in range(7, -1, -1) -%}
        {%- do pairs.append('substr(' ~ digest ~ ', ' ~ (2 * byte + 1) ~ ', 2)') -%}
    {%- endfor -%}
    cast(conv(concat({{ pairs | join(', ') }}), 16, -10) as bigint)
{%- endmacro %}

{#- (a * b + c) mod 2^64 for unsigned 64-bit a, b, c. -#}
{% macro mul_add64(a, b, c='0') -%}
    {{ return(adapter.dispatch('mul_add64', 'paperrank')(a, b, c)) }}
{%- endmacro %}

{% macro default__mul_add64(a, b, c) -%}
    (({{ a }})::uhugeint * ({{ b }})::uhugeint + ({{ c }})::uhugeint
        & 18446744073709551615::uhugeint)::ubigint
{%- endmacro %}

{#- Signed 64-bit operands: the exact product fits decimal(38, 0); the result, taken mod 2^64,
    is shifted into the signed range. Constants above 2^63 - 1 are written as their signed form. -#}
{% macro spark__mul_add64(a, b, c) -%}
    {%- set operands = [] -%}
    {%- for operand in [a, b, c] -%}
        {%- set text = operand | string | trim -%}
        {%- if text.isdigit() and text | int > 9223372036854775807 -%}
            {%- set text = (text | int - 18446744073709551616) | string -%}
        {%- endif -%}
        {%- do operands.append('cast(' ~ text ~ ' as decimal(38, 0))') -%}
    {%- endfor -%}
    cast(pmod({{ operands[0] }} * {{ operands[1] }} + {{ operands[2] }} + 9223372036854775808,
        18446744073709551616) - 9223372036854775808 as bigint)
{%- endmacro %}

{#- x >> bits, a logical shift of an unsigned 64-bit x. -#}
{% macro shift_right64(x, bits) -%}
    {{ return(adapter.dispatch('shift_right64', 'paperrank')(x, bits)) }}
{%- endmacro %}

{% macro default__shift_right64(x, bits) -%}
    {{ x }} >> {{ bits }}
{%- endmacro %}

{% macro spark__shift_right64(x, bits) -%}
    shiftrightunsigned({{ x }}, {{ bits }})
{%- endmacro %}

{#- a xor b for unsigned 64-bit a and b. -#}
{% macro xor64(a, b) -%}
    {{ return(adapter.dispatch('xor64', 'paperrank')(a, b)) }}
{%- endmacro %}

{% macro default__xor64(a, b) -%}
    xor({{ a }}, {{ b }})
{%- endmacro %}

{% macro spark__xor64(a, b) -%}
    (({{ a }}) ^ ({{ b }}))
{%- endmacro %}

{#- x mod n for an unsigned 64-bit x and a positive count n. -#}
{% macro mod64(x, n) -%}
    {{ return(adapter.dispatch('mod64', 'paperrank')(x, n)) }}
{%- endmacro %}

{% macro default__mod64(x, n) -%}
    ({{ x }} % ({{ n }})::ubigint)
{%- endmacro %}

{#- pmod by 2^64 turns the signed form back into the unsigned value -#}
{% macro spark__mod64(x, n) -%}
    cast(pmod(cast({{ x }} as decimal(20, 0)), 18446744073709551616) % ({{ n }}) as bigint)
{%- endmacro %}

{#- The type of exact integer sums of squares (up to about 10^38). -#}
{% macro int128() -%}
    {{ return(adapter.dispatch('int128', 'paperrank')()) }}
{%- endmacro %}

{% macro default__int128() -%}
    hugeint
{%- endmacro %}

{% macro spark__int128() -%}
    decimal(38, 0)
{%- endmacro %}

{#- The exact sum of whole numbers (BIGINT values) as a 128-bit integer. DuckDB's sum of a BIGINT is
    a HUGEINT already; Spark's is a BIGINT, which would overflow (an error), so there the
    values are summed as decimal(38, 0). Past 38 digits both engines raise an error (Spark
    in ANSI mode, which profiles.yml sets), never a null or a wrapped sum. -#}
{% macro sum_int128(expression) -%}
    {{ return(adapter.dispatch('sum_int128', 'paperrank')(expression)) }}
{%- endmacro %}

{% macro default__sum_int128(expression) -%}
    sum({{ expression }})
{%- endmacro %}

{% macro spark__sum_int128(expression) -%}
    sum(cast({{ expression }} as decimal(38, 0)))
{%- endmacro %}

{#- A relation of the whole numbers 1..n in `column`. -#}
{% macro integer_series(column, n) -%}
    {{ return(adapter.dispatch('integer_series', 'paperrank')(column, n)) }}
{%- endmacro %}

{% macro default__integer_series(column, n) -%}
    (select range as {{ column }} from range(1, {{ n }} + 1))
{%- endmacro %}

{% macro spark__integer_series(column, n) -%}
    (select id as {{ column }} from range(1, {{ n }} + 1))
{%- endmacro %}

{#- A title's LaTeX as plain text, for reading (the title itself stays as the authors wrote it):
    `\emph{fast}` -> `fast`, `$\alpha$-Nets` -> `alpha-Nets`, `\&` -> `&`, braces and dollar
    signs dropped, runs of white space folded. Not a LaTeX renderer: a reading aid. -#}
{% macro latex_to_text(column) -%}
    {{ return(adapter.dispatch('latex_to_text', 'paperrank')(column)) }}
{%- endmacro %}

{% macro default__latex_to_text(column) -%}
    trim(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
        {{ column }},
        '\\[a-zA-Z]+\*?\{([^{}]*)\}', '\1', 'g'),
        '\\([&%_#$])', '\1', 'g'),
        '\\([a-zA-Z]+)', '\1', 'g'),
        '[${}]', '', 'g'),
        '\s+', ' ', 'g'))
{%- endmacro %}

{#- The same five replacements in Java's regular expressions: raw literals (r'...', so Spark
    does not read the backslashes as escapes), `$1` for the group, every match replaced without
    a flag, and RE2's `\s` spelled out (Java's also matches a vertical tab). -#}
{% macro spark__latex_to_text(column) -%}
    trim(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
        {{ column }},
        r'\\[a-zA-Z]+\*?\{([^{}]*)\}', '$1'),
        r'\\([&%_#$])', '$1'),
        r'\\([a-zA-Z]+)', '$1'),
        r'[${}]', ''),
        r'[\t\n\f\r ]+', ' '))
{%- endmacro %}

{#- A relation (for `from`) of a seed's CSV file as it is on disk, every column text: the
    settings check reads the files `dbt seed` is about to load. -#}
{% macro seed_file_relation(name) -%}
    {{ return(adapter.dispatch('seed_file_relation', 'paperrank')(name)) }}
{%- endmacro %}

{% macro default__seed_file_relation(name) -%}
    {{ return('read_csv(' ~ sql_string(_seed_file(name)) ~ ', header = true, all_varchar = true)') }}
{%- endmacro %}

{#- Spark reads a CSV file through a temporary view (every column a string by default). -#}
{% macro spark__seed_file_relation(name) -%}
    {%- set view = 'seed_file_' ~ name -%}
    {%- do run_query('create or replace temporary view ' ~ view ~ " using csv options (path "
        ~ sql_string(_seed_file(name)) ~ ", header 'true', multiLine 'true', escape '\"')") -%}
    {{ return(view) }}
{%- endmacro %}

{#- The type of a timestamp with time zone (Spark's timestamp is one: an instant, shown in the
    session's time zone). -#}
{% macro timestamp_tz() -%}
    {{ return(adapter.dispatch('timestamp_tz', 'paperrank')()) }}
{%- endmacro %}

{% macro default__timestamp_tz() -%}
    {{ return('timestamptz') }}
{%- endmacro %}

{% macro spark__timestamp_tz() -%}
    {{ return('timestamp') }}
{%- endmacro %}

{#- dbt-spark's escape_single_quotes (for unit test fixtures' text, among others) escapes
    quotes but not backslashes, which Spark then reads as escapes (`\textbf` would become a tab
    and `extbf`). This one escapes both, as spark__sql_string does. -#}
{% macro spark__escape_single_quotes(expression) -%}
    {{ expression | replace("\\", "\\\\") | replace("'", "\\'") }}
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
