-- One build: build_settings has one build id, and a row for every ranked venue.
{{ config(tags=['marts_agree']) }}

with

settings as (

    select * from {{ ref('build_settings') }}

),

rankings as (

    select * from {{ ref('paper_rankings') }}

),

build_ids as (

    select
        'build ids' as problem,
        count(distinct build_id) as found

    from settings
    having count(distinct build_id) <> 1

),

unsettled_venues as (

    select distinct venue from rankings
    except
    select venue from settings

),

final as (

    select
        problem,
        found
    from build_ids

    union all

    select
        'ranked venue without settings: ' || venue as problem,
        1 as found
    from unsettled_venues

)

select * from final
