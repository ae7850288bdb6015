{#- Engine shim (dbt-utils' dispatch): default__ is the DuckDB form, the one the models are
    linted in; spark__ is the form dbt-spark needs. -#}

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
