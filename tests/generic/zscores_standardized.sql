{#-
    Per group, the z-scores of each signal have mean 0 and sample std 1 wherever they are
    defined (more than one paper and some spread); where undefined they are all 0. `columns`
    maps each z-score column to the signal it standardizes: one test reads the table once for
    all of them (each test is a node of the build, with dbt's own work per node), and each
    failing row names its z-score column and group.
-#}
-- noqa: disable=LT02
{#- the loops' indents, rendered run and not run, disagree as in keys_and_nulls.sql -#}
{% test zscores_standardized(model, columns, group_by, tolerance=1e-9) %}

with

grouped as (

    select
        {{ group_by | join(', ') }},
        {%- for z_column, source_column in columns.items() %}
            count({{ source_column }}) as value_count_{{ loop.index }},
            stddev_samp({{ source_column }}) as source_std_{{ loop.index }},
            avg({{ z_column }}) as z_mean_{{ loop.index }},
            stddev_samp({{ z_column }}) filter (
                where {{ source_column }} is not null
            ) as z_std_{{ loop.index }},
            max(abs({{ z_column }})) as z_max_abs_{{ loop.index }}
            {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from {{ model }}
    group by {{ group_by | join(', ') }}

),

final as (

    {%- for z_column in columns %}
        {%- if not loop.first %}

        union all
        {%- endif %}

        select
            '{{ z_column }}' as z_column,
            {{ group_by | join(', ') }},
            value_count_{{ loop.index }} as value_count,
            source_std_{{ loop.index }} as source_std,
            z_mean_{{ loop.index }} as z_mean,
            z_std_{{ loop.index }} as z_std,
            z_max_abs_{{ loop.index }} as z_max_abs
        from grouped
        where
            case
                when value_count_{{ loop.index }} > 1 and source_std_{{ loop.index }} > 0
                    then
                        abs(z_mean_{{ loop.index }}) > {{ tolerance }}
                        or abs(z_std_{{ loop.index }} - 1) > {{ tolerance }}
                else z_max_abs_{{ loop.index }} <> 0
            end
    {%- endfor %}

)

select * from final

{% endtest %}
