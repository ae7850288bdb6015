{#- Within each group, the absolute weights add up to 1, so the composite stays on the
    scale of a z-score whatever weights an operator chooses. -#}
{% test weights_sum_to_one(model, column_name='weight', group_by='weight_set', tolerance=1e-9) %}

select
    {{ group_by }},
    sum(abs({{ column_name }})) as absolute_weight_total

from {{ model }}
group by {{ group_by }}
having abs(sum(abs({{ column_name }})) - 1) > {{ tolerance }}

{% endtest %}
