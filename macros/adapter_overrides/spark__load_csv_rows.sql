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
