{#- The order of a category's list, the one home of the tie-breakers: composite (equal to 12
    decimals counts as a tie, so the same scores in another review order still tie), then
    rating_mean, then paper_id. paper_rankings and every redrawn or reweighted ranking use it. -#}
{% macro ranking_order(composite, rating_mean='rating_mean', paper_id='paper_id') -%}
    round({{ composite }}, 12) desc, {{ rating_mean }} desc nulls last, {{ paper_id }} asc
{%- endmacro %}
