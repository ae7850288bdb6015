with

source as (

    select * from {{ source('derived', 'paper_subthemes') }}

),

renamed as (

    select
        venue,
        taxonomy,
        label_model,
        paper_id,
        category,
        subtheme

    from source

)

select * from renamed
