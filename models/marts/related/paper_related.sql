with

related as (

    select * from {{ ref('stg_derived__paper_related') }}

),

computed as (

    select * from {{ ref('int_related_computations') }}

),

papers as (

    select * from {{ ref('int_related_paper_texts') }}

),

titles as (

    select * from {{ ref('stg_raw__papers') }}

),

venues as (

    select venue from computed
    where part = 'related'

),

-- the first related_papers of each paper of a computed venue of this build
kept as (

    select related.*
    from related
    inner join venues
        on related.venue = venues.venue
    inner join papers
        on
            related.venue = papers.venue
            and related.paper_id = papers.paper_id
    where related.related_rank <= {{ var('related_papers') }}

),

final as (

    select
        kept.venue,
        kept.paper_id,
        cast(kept.related_rank as bigint) as related_rank,
        kept.related_paper_id,
        titles.title_plain as related_title,
        cast(kept.similarity as double) as similarity

    from kept
    left join titles
        on kept.related_paper_id = titles.paper_id

)

select * from final
