{#- sum(x) for doubles of magnitude below 1e6 that does not depend on row order or thread
    count: each value is rounded to 12 decimals and the decimals are summed exactly. -#}
{% macro order_free_sum(x) -%}
    cast(sum(cast({{ x }} as decimal(18, 12))) as double)
{%- endmacro %}

{% macro order_free_avg(x) -%}
    ({{ order_free_sum(x) }} / count({{ x }}))
{%- endmacro %}
