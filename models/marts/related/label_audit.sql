with

audited as (

    select * from {{ ref('stg_derived__label_audit') }}

),

computed as (

    select * from {{ ref('int_related_computations') }}

),

categorized as (

    select * from {{ ref('int_papers_categorized') }}

),

venues as (

    select venue from computed
    where part = 'audit'

),

-- the audit of the labels this build uses (a label changed since the audit has no row, and
-- the test related__label_audit_covers_the_labels names it)
final as (

    select
        audited.venue,
        audited.paper_id,
        audited.taxonomy,
        audited.label_category,
        audited.audit_category,
        cast(audited.audit_confidence as double) as audit_confidence,
        categorized.category,
        (
            audited.audit_category <> audited.label_category
            and audited.audit_confidence >= {{ var('label_audit_threshold') }}
        ) as is_disputed,
        cast({{ var('label_audit_threshold') }} as double) as dispute_threshold

    from audited
    inner join venues
        on audited.venue = venues.venue
    inner join categorized
        on
            audited.venue = categorized.venue
            and audited.paper_id = categorized.paper_id
            and audited.label_category = categorized.label_category
    where
        audited.taxonomy = {{ sql_string(var('taxonomy')) }}
        and audited.label_model = {{ related_label_model() }}

)

select * from final
