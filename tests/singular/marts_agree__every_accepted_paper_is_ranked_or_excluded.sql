-- Every accepted paper of a built venue is ranked or excluded, never both: the venues where
-- the counts do not add up.
{{ config(tags=['marts_agree']) }}

with

papers as (

    select * from {{ ref('stg_raw__papers') }}

),

settings as (

    select * from {{ ref('build_settings') }}

),

rankings as (

    select * from {{ ref('paper_rankings') }}

),

excluded_papers as (

    select * from {{ ref('excluded_papers') }}

),

accepted as (

    select
        papers.venue,
        count(*) as accepted

    from papers
    inner join settings
        on papers.venue = settings.venue
    where papers.is_accepted
    group by papers.venue

),

ranked as (

    select
        venue,
        count(*) as ranked

    from rankings
    group by venue

),

excluded as (

    select
        venue,
        count(*) as excluded

    from excluded_papers
    group by venue

),

in_both as (

    select
        rankings.venue,
        count(*) as in_both

    from rankings
    inner join excluded_papers
        on rankings.paper_id = excluded_papers.paper_id
    group by rankings.venue

),

final as (

    select
        accepted.venue,
        accepted.accepted,
        coalesce(ranked.ranked, 0) as ranked,
        coalesce(excluded.excluded, 0) as excluded,
        coalesce(in_both.in_both, 0) as in_both

    from accepted
    left join ranked
        on accepted.venue = ranked.venue
    left join excluded
        on accepted.venue = excluded.venue
    left join in_both
        on accepted.venue = in_both.venue
    where
        accepted.accepted <> coalesce(ranked.ranked, 0) + coalesce(excluded.excluded, 0)
        or coalesce(in_both.in_both, 0) > 0

)

select * from final
