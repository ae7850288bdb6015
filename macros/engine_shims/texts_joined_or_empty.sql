{#- Engine shim (dbt-utils' dispatch): default__ is the DuckDB form, the one the models are
    linted in; spark__ is the form dbt-spark needs. -#}

{#- A list of texts joined by `separator` (a SQL expression), its null items skipped (both engines skip
    them); '' for a null or empty list. -#}
{% macro texts_joined_or_empty(column, separator) -%}
    {{ return(adapter.dispatch('texts_joined_or_empty', 'paperrank')(column, separator)) }}
{%- endmacro %}

{% macro default__texts_joined_or_empty(column, separator) -%}
    coalesce(array_to_string({{ column }}, {{ separator }}), '')
{%- endmacro %}

{% macro spark__texts_joined_or_empty(column, separator) -%}
    coalesce(concat_ws({{ separator }}, {{ column }}), '')
{%- endmacro %}
