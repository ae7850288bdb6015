{#- A SQL string literal for a value from vars or arguments, with quotes escaped, so an
    operator's taxonomy or venue name can never change the statement. -#}
{% macro sql_string(value) -%}
    '{{ value | string | replace("'", "''") }}'
{%- endmacro %}
