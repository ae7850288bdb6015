{#- Rank confidence sets that contradict their definitions: a bound outside 1..category size,
    a marginal set not inside the simultaneous one, or a certainly-top-N paper outside the
    possibly-top-N set. -#}
{% test rank_sets_nested(model) %}

select *
from {{ model }}
where
    marginal_lower < 1
    or marginal_upper > category_size
    or marginal_lower > marginal_upper
    or simultaneous_lower > marginal_lower
    or simultaneous_upper < marginal_upper
    or (is_certainly_top_n and not is_possibly_top_n)

{% endtest %}
