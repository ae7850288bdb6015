with

reviews as (

    select * from {{ ref('stg_raw__reviews') }}

),

aggregated as (

    select
        paper_id,
        count(*) as review_count,
        avg(contribution) as contribution_mean,
        avg(rating) as rating_mean,
        avg(confidence) as confidence_mean,
        avg(soundness) as soundness_mean,
        avg(presentation) as presentation_mean,
        -- population std (the paper's reviewers are the whole population; 0 for one review),
        -- from exact integer sums: sqrt((n * sum(x^2) - sum(x)^2) / n^2). Unlike a running
        -- (Welford) std it does not depend on the order reviews arrive in, so papers with the
        -- same scores get bit-identical values and ties stay ties from run to run.
        sqrt(
            greatest(count(rating) * sum(rating * rating) - sum(rating) * sum(rating), 0)
            / nullif(count(rating) * count(rating), 0)
        ) as rating_std,
        count(rating) as rating_count,
        min(rating) as rating_min,
        max(rating) as rating_max

    from reviews
    group by paper_id

)

select * from aggregated
