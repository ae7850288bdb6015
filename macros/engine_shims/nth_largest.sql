{#- Engine shim (dbt-utils' dispatch): default__ is the DuckDB form, the one the models are
    linted in; spark__ is the form dbt-spark needs. -#}

{#- An aggregate: the n-th largest value of `x` in the group (null when it has fewer than n
    rows). DuckDB keeps only the n largest (max(x, n)); Spark sorts the group's values. -#}
{% macro nth_largest(x, n) -%}
    {{ return(adapter.dispatch('nth_largest', 'paperrank')(x, n)) }}
{%- endmacro %}

{% macro default__nth_largest(x, n) -%}
    (max({{ x }}, {{ n | int }}))[{{ n | int }}]
{%- endmacro %}

{% macro spark__nth_largest(x, n) -%}
    try_element_at(sort_array(collect_list({{ x }}), false), {{ n | int }})
{%- endmacro %}
