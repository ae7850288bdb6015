{#- Within each group the ranks run 1..n with no gap and no repeat. -#}
{% test ranks_contiguous(model, column_name, group_by) %}

with

grouped as (

    select
        {{ group_by | join(', ') }},
        count(*) as row_count,
        count(distinct {{ column_name }}) as distinct_ranks,
        min({{ column_name }}) as min_rank,
        max({{ column_name }}) as max_rank

    from {{ model }}
    group by {{ group_by | join(', ') }}

)

select * from grouped
where min_rank <> 1 or max_rank <> row_count or distinct_ranks <> row_count

{% endtest %}
