with

source as (

    select * from {{ source('derived', 'label_audit') }}

),

renamed as (

    select
        venue,
        taxonomy,
        label_model,
        paper_id,
        label_category,
        audit_category,
        audit_confidence

    from source

)

select * from renamed
