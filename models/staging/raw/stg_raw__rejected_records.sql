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
        payload,
        rejected_at,
        trim(split_part(reason, ':', 1)) as reason_kind

    from source

)

select * from renamed
