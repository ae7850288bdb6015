{#- Engine shim (dbt-utils' dispatch): default__ is the DuckDB form, the one the models are
    linted in; spark__ is the form dbt-spark needs. -#}

{#- A list of text as one '; '-joined string, in the list's order; null for a null or empty
    list (authors travel the same way). -#}
{% macro texts_semicolon_joined_or_null(items) -%}
    {{ return(adapter.dispatch('texts_semicolon_joined_or_null', 'paperrank')(items)) }}
{%- endmacro %}

{% macro default__texts_semicolon_joined_or_null(items) -%}
    nullif(array_to_string({{ items }}, '; '), '')
{%- endmacro %}

{% macro spark__texts_semicolon_joined_or_null(items) -%}
    nullif(array_join({{ items }}, '; '), '')
{%- endmacro %}
