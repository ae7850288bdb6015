{#- Engine shim (dbt-utils' dispatch): default__ is the DuckDB form, the one the models are
    linted in; spark__ is the form dbt-spark needs. -#}

{#- The distinct non-null values of a text column, sorted and ', '-joined, as an aggregate
    (null when there are none). -#}
{% macro sorted_distinct_text(column) -%}
    {{ return(adapter.dispatch('sorted_distinct_text', 'paperrank')(column)) }}
{%- endmacro %}

{% macro default__sorted_distinct_text(column) -%}
    string_agg(distinct {{ column }}, ', ' order by {{ column }})
{%- endmacro %}

{% macro spark__sorted_distinct_text(column) -%}
    nullif(array_join(array_sort(collect_set({{ column }})), ', '), '')
{%- endmacro %}
