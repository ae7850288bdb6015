with

source as (

    select * from {{ source('raw', 'rejected_records') }}

),

renamed as (

    select
        load_id,
        source as loaded_from,
        record_key,
        reason,
        reason_kind,
        payload,
        rejected_at

    from source

)

select * from renamed
