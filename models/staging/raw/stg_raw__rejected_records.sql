with

source as (

    select * from {{ source('raw', 'rejected_records') }}

),

renamed as (

    select
        load_id,
        source as loaded_from,
        record_key,
        trim(split_part(reason, ':', 1)) as reason_kind,
        reason,
        payload,
        rejected_at

    from source

)

select * from renamed
