{#- The papers of each validity group, numbered: one row per (venue, category, population,
    outcome) group and paper the outcome is defined for, with the group's number
    (sample_group), the paper's number within it (by paper_id), the group's size and the
    paper's outcome. Only groups that can have a metric are kept: both classes of a binary
    outcome, at least 3 papers for a correlation. The bootstrap (int_validity_samples) draws
    paper numbers, so the mart joins integers only. -#}
{{ config(materialized='table') }}

with

scores as (

    select * from {{ ref('int_validity_scores') }}

),

defined as (

    select
        venue,
        category,
        population,
        'accepted' as outcome,
        paper_id,
        outcome_accepted as positive,
        cast(null as double) as citations
    from scores
    where outcome_accepted is not null
    union all
    select
        venue,
        category,
        population,
        'top_tier' as outcome,
        paper_id,
        outcome_top_tier as positive,
        cast(null as double) as citations
    from scores
    where outcome_top_tier is not null
    union all
    select
        venue,
        category,
        population,
        'citations' as outcome,
        paper_id,
        cast(null as integer) as positive,
        cast(citations as double) as citations
    from scores
    where citations is not null

),

sized as (

    select
        *,
        min(positive) over (partition by venue, category, population, outcome) as lowest,
        max(positive) over (partition by venue, category, population, outcome) as highest,
        count(*) over (partition by venue, category, population, outcome) as papers

    from defined

),

kept as (

    select * from sized
    where (outcome = 'citations' and papers >= 3) or (lowest = 0 and highest = 1)

),

final as (

    select
        venue,
        category,
        population,
        outcome,
        papers as group_size,
        paper_id,
        positive,
        citations,
        dense_rank() over (order by venue, category, population, outcome) as sample_group,
        venue || '|' || coalesce(category, '') || '|' || population || '|' || outcome as group_key,
        row_number() over (
            partition by venue, category, population, outcome order by paper_id
        ) as paper_number

    from kept

)

select * from final
