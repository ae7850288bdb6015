{#-
    No row of the model holds a null in any of `columns`: the rows that do, whole.

    For the seeds, one test per seed instead of dbt's not_null per column: each test is a node
    of the build, with dbt's own work per node whatever the table's size (docs/dbt_project.md,
    "Checks"). Its failing rows are the seed's own rows, so `paperrank quality test-failures`
    names the CSV lines they come from (the lines whose cells hold the row's values, an empty
    cell for a null).
-#}
-- noqa: disable=LT02
{#- the loop's indents, rendered run and not run, disagree as in keys_and_nulls.sql -#}
{% test not_null_rows(model, columns) %}

select *
from {{ model }}
where
    {%- for column in columns %}
        {% if not loop.first %}or {% endif %}{{ column }} is null
    {%- endfor %}

{% endtest %}
