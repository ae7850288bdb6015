{#-
    What the rank confidence sets rank, on both paths: per ranked paper its composite
    (local_top_overall, the estimate) and the composite's standard error, both from
    int_normal_composite_errors (one row per ranked paper, with its paper_rankings keys), with its category's group_key and path
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

errors as (

    select * from {{ ref('int_normal_composite_errors') }}

),

categories as (

    select * from {{ ref('int_rank_set_categories') }}

),

final as (

    select
        errors.venue,
        errors.category,
        errors.paper_id,
        errors.category_rank,
        errors.category_size,
        categories.group_key,
        categories.rank_set_method,
        errors.local_top_overall as estimate,
        errors.composite_se as se

    from errors
    inner join categories
        on
            errors.venue = categories.venue
            and errors.category = categories.category

)

select * from final
