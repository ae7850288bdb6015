{#- Every non-null value matches the regular expression `pattern` in full. -#}
{% test matches_pattern(model, column_name, pattern) %}

select {{ column_name }}
from {{ model }}
where
    {{ column_name }} is not null
    and not {{ regex_full_match(column_name, pattern) }}

{% endtest %}
