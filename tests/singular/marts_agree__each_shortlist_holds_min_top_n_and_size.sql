-- Each ranked category's shortlist holds min(top_n, its size) papers, top_n as build_settings
-- recorded it: the categories where it does not.
{{ config(tags=['marts_agree']) }}

with

rankings as (

    select * from {{ ref('paper_rankings') }}

),

settings as (

    select * from {{ ref('build_settings') }}

),

per_category as (

    select
        venue,
        category,
        count(*) as ranked,
        count(case when is_top_n then 1 end) as shortlisted

    from rankings
    group by venue, category

),

final as (

    select
        per_category.venue,
        per_category.category,
        per_category.ranked,
        per_category.shortlisted,
        settings.top_n

    from per_category
    left join settings
        on per_category.venue = settings.venue
    where
        settings.top_n is null
        or per_category.shortlisted <> least(per_category.ranked, settings.top_n)

)

select * from final
