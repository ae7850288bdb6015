with

source as (

    select * from {{ source('derived', 'related_inputs') }}

),

renamed as (

    select
        venue,
        paper_id,
        text_hash

    from source

)

select * from renamed
