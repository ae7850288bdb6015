{#- Every value names a signal of the ranking_signals macro, the one list of the signals the
    composite can weigh (a weight on any other name would be silently ignored). -#}
{% test is_ranking_signal(model, column_name) %}

select {{ column_name }}
from {{ model }}
where {{ column_name }} not in ('{{ ranking_signals() | join("', '") }}')

{% endtest %}
