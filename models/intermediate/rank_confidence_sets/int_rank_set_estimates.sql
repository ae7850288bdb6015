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

    Only the categories of the exact path are here (int_rank_set_categories: their draws fit
    rank_sets_row_budget); the others are int_rank_set_scaled_estimates'.
-#}
{{ config(materialized="table") }}

with

rankings as (

    select * from {{ ref('paper_rankings') }}

),

errors as (

    select * from {{ ref('int_normal_composite_errors') }}

),

categories as (

    select * from {{ ref('int_rank_set_categories') }}

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
        categories.group_key,
        row_number() over (order by rankings.paper_id) as item_number

    from rankings
    inner join errors
        on rankings.paper_id = errors.paper_id
    inner join categories
        on
            rankings.venue = categories.venue
            and rankings.category = categories.category
    where categories.rank_set_method = 'exact'

),

final as (

    select
        venue,
        category,
        paper_id,
        category_rank,
        category_size,
        group_key,
        item_number,
        item_key,
        estimate,
        se

    from keyed

)

select * from final
