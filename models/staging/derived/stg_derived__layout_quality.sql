with

source as (

    select * from {{ source('derived', 'layout_quality') }}

),

renamed as (

    select
        venue,
        taxonomy,
        label_model,
        layout_category,
        papers,
        trustworthiness,
        seconds

    from source

)

select * from renamed
