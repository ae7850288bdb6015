with

source as (

    select * from {{ source('derived', 'paper_layouts') }}

),

renamed as (

    select
        venue,
        taxonomy,
        label_model,
        layout_category,
        paper_id,
        x,
        y

    from source

)

select * from renamed
