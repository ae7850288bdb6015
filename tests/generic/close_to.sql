{#- Every row's column is within `tolerance` of `expected`; both are SQL expressions over the
    model's columns (written in the project's YAML, never taken from input data). -#}
{% test close_to(model, column_name, expected, tolerance) %}

select
    {{ column_name }},
    {{ expected }} as expected_value,
    {{ tolerance }} as tolerance

from {{ model }}
where
    {{ column_name }} is null
    or abs({{ column_name }} - ({{ expected }})) > {{ tolerance }}

{% endtest %}
