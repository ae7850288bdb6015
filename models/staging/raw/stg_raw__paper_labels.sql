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

),

-- The one rule for "latest label" (macros/labels/label_recency_order.sql): newest answer
-- first, then the newest load, then the label's content hash, so every label of a paper and
-- taxonomy has its own place. Any subset of the labels (one model, all but one model) is
-- ordered the same way, so readers pick their latest by the lowest label_recency of the
-- labels they consider.
ordered as (

    select
        *,
        row_number() over (
            partition by paper_id, taxonomy
            order by {{ label_recency_order() }}
        ) as label_recency

    from renamed

)

select * from ordered
