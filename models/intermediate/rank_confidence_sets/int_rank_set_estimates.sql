{#-
    What the rank confidence sets rank: per ranked paper its composite (local_top_overall) and
    the composite's standard error (int_normal_composite_errors), keyed for the rank-set
    macros (group_key = the category, item_number = the paper in paper_id order).

    Assumptions (docs/rank-confidence-sets.md): each composite is approximately normal around
    the paper's true composite with that standard error; papers are independent given the
    category's standardisation (the category means and standard deviations are taken as
    fixed, so a paper's reviews move only its own composite); the rating_std term's own
    spread is left out of the se, as in the closed-form uncertainty method.

    The se is composite_se, already in the sample-variance form (not shrunk by (n - 1)/n:
    macros/statistics/small_sample_factor.sql).

    Only the categories whose draws fit rank_sets_row_budget (papers x B, smallest categories
    first) are here; the others get no sets.
-#}
{{ config(materialized="table") }}
{%- set settings = rank_sets_settings() %}

with

rankings as (

    select * from {{ ref('paper_rankings') }}

),

errors as (

    select * from {{ ref('int_normal_composite_errors') }}

),

keyed as (

    select
        rankings.venue,
        rankings.category,
        rankings.paper_id,
        rankings.category_rank,
        rankings.category_size,
        rankings.paper_id as item_key,
        rankings.local_top_overall as estimate,
        errors.composite_se as se,
        dense_rank() over (order by rankings.venue, rankings.category) as group_key,
        row_number() over (order by rankings.paper_id) as item_number

    from rankings
    inner join errors
        on rankings.paper_id = errors.paper_id

),

-- draw rows of each category and of every category not larger (ties: by group_key)
budgeted as (

    select
        group_key,
        sum(category_size * {{ settings.draws }}) over (
            order by category_size, group_key rows between unbounded preceding and current row
        ) as cumulative_draw_rows

    from (
        select distinct
            group_key,
            category_size
        from keyed
    ) as categories

),

final as (

    select
        keyed.venue,
        keyed.category,
        keyed.paper_id,
        keyed.category_rank,
        keyed.category_size,
        keyed.group_key,
        keyed.item_number,
        keyed.item_key,
        keyed.estimate,
        keyed.se

    from keyed
    inner join budgeted
        on keyed.group_key = budgeted.group_key
    where budgeted.cumulative_draw_rows <= {{ settings.row_budget }}

)

select * from final
