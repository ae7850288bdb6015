{#- Within each group at most `n` rows have the boolean `column_name` set. -#}
{% test at_most_n_flagged(model, column_name, group_by, n) %}

select
    {{ group_by | join(', ') }},
    count(*) filter (where {{ column_name }}) as flagged_rows

from {{ model }}
group by {{ group_by | join(', ') }}
having count(*) filter (where {{ column_name }}) > {{ n }}

{% endtest %}
