{#- Per group, the z-scores of a signal have mean 0 and sample std 1 wherever they are
    defined (more than one paper and some spread); where undefined they are all 0. -#}
{% test zscores_standardized(model, column_name, group_by, source_column, tolerance=1e-9) %}

with

grouped as (

    select
        {{ group_by | join(', ') }},
        count({{ source_column }}) as value_count,
        stddev_samp({{ source_column }}) as source_std,
        avg({{ column_name }}) as z_mean,
        stddev_samp({{ column_name }}) filter (where {{ source_column }} is not null) as z_std,
        max(abs({{ column_name }})) as z_max_abs

    from {{ model }}
    group by {{ group_by | join(', ') }}

)

select * from grouped
where
    case
        when value_count > 1 and source_std > 0
            then abs(z_mean) > {{ tolerance }} or abs(z_std - 1) > {{ tolerance }}
        else z_max_abs <> 0
    end

{% endtest %}
