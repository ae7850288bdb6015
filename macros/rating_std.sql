{#- Population standard deviation of `column` within the group (0 for one value), from exact
    integer sums: sqrt((n * sum(x^2) - sum(x)^2) / n^2). Unlike a running (Welford) std it does
    not depend on the order the rows arrive in, so equal scores give bit-identical values. -#}
{% macro rating_std(column) -%}
    sqrt(
        greatest(count({{ column }}) * sum({{ column }} * {{ column }}) - sum({{ column }}) * sum({{ column }}), 0)
        / nullif(count({{ column }}) * count({{ column }}), 0)
    )
{%- endmacro %}
