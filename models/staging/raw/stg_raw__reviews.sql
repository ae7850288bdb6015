with

source as (

    select * from {{ source('raw', 'reviews') }}

),

renamed as (

    select
        review_id,
        paper_id,
        reviewer,
        rating,
        confidence,
        soundness,
        contribution,
        presentation,
        source as loaded_from,
        snapshot_at,
        loaded_at

    from source

)

select * from renamed
