{#- The validity groups: one row per (venue, category, population, outcome) group that can
    have a metric (both classes of a binary outcome, at least 3 papers for a correlation), with
    its number (sample_group, the key every later join and window uses) and its size. Which
    papers belong to a group is the one rule of macros/outcomes/validity_outcome_rows.sql. -#}
{{ config(materialized='table') }}

with

scores as (

    select * from {{ ref('int_validity_scores') }}

),

defined as (

    {{ validity_outcome_rows('scores') }}

),

group_sizes as (

    select
        venue,
        category,
        population,
        outcome,
        count(*) as papers,
        min(positive) as lowest,
        max(positive) as highest

    from defined
    group by venue, category, population, outcome

),

final as (

    select
        venue,
        category,
        population,
        outcome,
        papers as group_size,
        row_number() over (order by venue, category, population, outcome) as sample_group

    from group_sizes
    where (outcome = 'citations' and papers >= 3) or (lowest = 0 and highest = 1)

)

select * from final
