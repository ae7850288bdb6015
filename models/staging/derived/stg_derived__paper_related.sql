with

source as (

    select * from {{ source('derived', 'paper_related') }}

),

renamed as (

    select
        venue,
        paper_id,
        related_rank,
        related_paper_id,
        similarity

    from source

)

select * from renamed
