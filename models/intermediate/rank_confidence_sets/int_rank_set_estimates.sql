{#-
    What the rank confidence sets rank: per ranked paper its composite (local_top_overall) and
    the composite's standard error (int_composite_errors_estimated), keyed for the rank-set
    macros (group_key = the category, item_number = the paper in paper_id order).

    Assumptions (docs/rank-confidence-sets.md): each composite is approximately normal around
    the paper's true composite with that standard error; papers are independent given the
    category's standardisation (the category means and standard deviations are taken as
    fixed, so a paper's reviews move only its own composite); the rating_std term's own
    spread is left out of the se, as in the closed-form uncertainty method.
-#}

with

rankings as (

    select * from {{ ref('paper_rankings') }}

),

errors as (

    select * from {{ ref('int_composite_errors_estimated') }}

),

final as (

    select
        rankings.venue,
        rankings.category,
        rankings.paper_id,
        rankings.category_rank,
        rankings.category_size,
        dense_rank() over (order by rankings.venue, rankings.category) as group_key,
        row_number() over (order by rankings.paper_id) as item_number,
        rankings.paper_id as item_key,
        rankings.local_top_overall as estimate,
        errors.composite_se as se

    from rankings
    inner join errors
        on rankings.paper_id = errors.paper_id

)

select * from final
