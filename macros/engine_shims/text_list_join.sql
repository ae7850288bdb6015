{#- Engine shim (dbt-utils' dispatch): default__ is the DuckDB form, the one the models are
    linted in; spark__ is the form dbt-spark needs. -#}

{#- A list of texts joined by `separator` (a SQL expression), its null items skipped (both engines skip
    them); '' for a null or empty list. -#}
{% macro text_list_join(column, separator) -%}
    {{ return(adapter.dispatch('text_list_join', 'paperrank')(column, separator)) }}
{%- endmacro %}

{% macro default__text_list_join(column, separator) -%}
    coalesce(array_to_string({{ column }}, {{ separator }}), '')
{%- endmacro %}

{% macro spark__text_list_join(column, separator) -%}
    coalesce(concat_ws({{ separator }}, {{ column }}), '')
{%- endmacro %}
