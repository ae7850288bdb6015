{#- dbt-spark's escape_single_quotes (for unit test fixtures' text, among others) escapes
    quotes but not backslashes, which Spark then reads as escapes (`\textbf` would become a tab
    and `extbf`). This one escapes both, as spark__sql_string does. -#}
{% macro spark__escape_single_quotes(expression) -%}
    {{ expression | replace("\\", "\\\\") | replace("'", "\\'") }}
{%- endmacro %}
