{#-
    A model's keys and its required columns, in one test: no row holds a null in any of
    `not_null`, and no two rows share the values of any key in `unique` (a list of keys, each a
    list of columns). One row per unmet rule: the rule (`null` or `duplicate`), its columns, how
    many rows hold a null or how many key values repeat, and for a duplicate the smallest
    repeated key.

    dbt's not_null and unique are a test each per column, and each test is a node of the build
    with dbt's own work per node (compiling, events, a transaction): about 35 ms of Python on
    DuckDB and more on Spark, whatever the table's size. One test per model instead: 153 column
    not-null tests had become 58 (one per model), then those and the models' and sources' 69
    unique tests became 71; the project's data tests went from 226 to 170, a build of every
    extra on ICLR 2026 from 305 nodes to 250 (docs/dbt_project.md "Checks"). A key's nulls count as one value,
    as in a group by: a key column belongs in `not_null` too. `paperrank quality test-failures`
    prints the rows, so a failure still names its rule and columns.
-#}
-- noqa: disable=LT02
{#- sqlfluff renders the loops run and not run, and asks for opposite indents of the same
    lines: the layout rule is off here, every other rule on. -#}
{% test keys_and_nulls(model, not_null=[], unique=[]) %}

with

{% if not_null %}
null_counts as (

    select
        {%- for column in not_null %}
            count(*) - count({{ column }}) as null_rows_{{ loop.index }}
            {%- if not loop.last %},{% endif %}
        {%- endfor %}
    from {{ model }}

),
{% endif %}

{%- for key in unique %}

duplicates_{{ loop.index }} as (

    select
        count(*) as repeated_keys,
        min(concat_ws(', ', {% for column in key %}cast({{ column }} as string){% if not loop.last %}, {% endif %}{% endfor %})) as example
    from (
        select {{ key | join(', ') }}
        from {{ model }}
        group by {{ key | join(', ') }}
        having count(*) > 1
    ) as repeated

),
{%- endfor %}

final as (

    {%- for column in not_null %}
        {%- if not loop.first %}

        union all
        {%- endif %}

        select
            'null' as rule,
            '{{ column }}' as rule_columns,
            null_rows_{{ loop.index }} as offending,
            cast(null as string) as example
        from null_counts
        where null_rows_{{ loop.index }} > 0
    {%- endfor %}
    {%- for key in unique %}
        {%- if not_null or not loop.first %}

        union all
        {%- endif %}

        select
            'duplicate' as rule,
            '{{ key | join(", ") }}' as rule_columns,
            repeated_keys as offending,
            example
        from duplicates_{{ loop.index }}
        where repeated_keys > 0
    {%- endfor %}

)

select * from final

{% endtest %}
