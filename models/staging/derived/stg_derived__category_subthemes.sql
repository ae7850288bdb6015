with

source as (

    select * from {{ source('derived', 'category_subthemes') }}

),

renamed as (

    select
        venue,
        taxonomy,
        label_model,
        category,
        subtheme,
        subtheme_label,
        subtheme_terms,
        paper_count

    from source

)

select * from renamed
