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
        {{ rating_std('rating') }} as rating_std,
        count(rating) as rating_count,
        min(rating) as rating_min,
        max(rating) as rating_max

    from reviews
    group by paper_id

)

select * from aggregated
