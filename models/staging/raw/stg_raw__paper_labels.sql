with

source as (

    select * from {{ source('raw', 'paper_labels') }}

),

renamed as (

    select
        record_hash as label_id,
        paper_id,
        taxonomy,
        category,
        confidence as label_confidence,
        rationale as label_rationale,
        model as label_model,
        prompt_hash as label_prompt_hash,
        source as loaded_from,
        labeled_at,
        loaded_at

    from source

)

select * from renamed
