-- Every labelled accepted paper of a venue whose labels were audited (for this build's
-- taxonomy and label model) has an audit row of its current label. A label added after
-- `paperrank related` ran is named here (run `paperrank related`, or `paperrank rank`).
{{ config(tags=['related']) }}

with

categorized as (

    select * from {{ ref('int_papers_categorized') }}

),

audit as (

    select * from {{ ref('label_audit') }}

),

computed as (

    select * from {{ ref('int_related_computations') }}

),

venues as (

    select venue from computed
    where part = 'audit' and result_rows > 0

),

final as (

    select
        categorized.venue,
        categorized.paper_id,
        categorized.label_category

    from categorized
    inner join venues
        on categorized.venue = venues.venue
    left join audit
        on
            categorized.venue = audit.venue
            and categorized.paper_id = audit.paper_id
    where categorized.label_category is not null and audit.paper_id is null

)

select * from final
