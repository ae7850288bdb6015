{#- Use the folder's schema name as is (staging, intermediate, marts, seeds), so analysts
    query marts.paper_rankings rather than main_marts.paper_rankings. -#}
{% macro generate_schema_name(custom_schema_name, node) -%}
    {%- if custom_schema_name is none -%}
        {{ target.schema }}
    {%- else -%}
        {{ custom_schema_name | trim }}
    {%- endif -%}
{%- endmacro %}
