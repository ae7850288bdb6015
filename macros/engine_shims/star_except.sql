{#- Engine shim (dbt-utils' dispatch): default__ is the DuckDB form, the one the models are
    linted in; spark__ is the form dbt-spark needs. -#}

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
