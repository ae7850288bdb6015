-- A related paper is another accepted paper of the same venue, never the paper itself.
{{ config(tags=['related']) }}

with

related as (

    select * from {{ ref('paper_related') }}

),

papers as (

    select * from {{ ref('int_related_paper_texts') }}

),

final as (

    select
        related.venue,
        related.paper_id,
        related.related_paper_id

    from related
    left join papers
        on
            related.venue = papers.venue
            and related.related_paper_id = papers.paper_id
    where related.related_paper_id = related.paper_id or papers.paper_id is null

)

select * from final
