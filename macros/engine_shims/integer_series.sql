{#- Engine shim (dbt-utils' dispatch): default__ is the DuckDB form, the one the models are
    linted in; spark__ is the form dbt-spark needs. -#}

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
