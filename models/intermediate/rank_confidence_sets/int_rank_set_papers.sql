{#-
    What the rank confidence sets rank, on both paths: per ranked paper its composite
    (local_top_overall, the estimate) and the composite's standard error
    (int_normal_composite_errors), with its category's group_key and path
    (int_rank_set_categories). Ephemeral: the exact path (int_rank_set_estimates) and the scaled
    one (int_rank_set_scaled_estimates) each take their categories' papers from it.

    Assumptions (docs/rank-confidence-sets.md): each composite is approximately normal around
    the paper's true composite with that standard error; papers are independent given the
    category's standardisation (the category means and standard deviations are taken as
    fixed, so a paper's reviews move only its own composite); the rating_std term's own
    spread is left out of the se, as in the closed-form uncertainty method.

    The se is composite_se, already in the sample-variance form (not shrunk by (n - 1)/n:
    macros/statistics/small_sample_factor.sql).
-#}
{{ config(materialized="ephemeral") }}

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

final as (

    select
        rankings.venue,
        rankings.category,
        rankings.paper_id,
        rankings.category_rank,
        rankings.category_size,
        categories.group_key,
        categories.rank_set_method,
        rankings.local_top_overall as estimate,
        errors.composite_se as se

    from rankings
    inner join errors
        on rankings.paper_id = errors.paper_id
    inner join categories
        on
            rankings.venue = categories.venue
            and rankings.category = categories.category

)

select * from final
