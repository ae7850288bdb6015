{#- Population standard deviation of a paper's ratings (the paper's reviewers are the whole
    population; 0 for one review), as an aggregate over `column`:
        sqrt((n * sum(x^2) - sum(x)^2) / n^2)
    Review scores are integers, so the sums are exact: unlike a running (Welford) std such as
    stddev_pop, the result does not depend on the order the reviews arrive in, papers with the
    same scores get bit-identical values, and ties stay ties from run to run. Every model that
    needs a paper's rating_std uses this macro. -#}
{% macro rating_std(column='rating') -%}
    sqrt(
        greatest(count({{ column }}) * sum({{ column }} * {{ column }}) - sum({{ column }}) * sum({{ column }}), 0)
        / nullif(count({{ column }}) * count({{ column }}), 0)
    )
{%- endmacro %}
