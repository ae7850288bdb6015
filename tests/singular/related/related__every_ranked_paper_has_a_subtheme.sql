-- Every ranked paper of a venue whose sub-themes were computed (for this build's taxonomy and
-- label model) has exactly one sub-theme. A paper labelled or re-labelled after `paperrank
-- related` ran is named here (run `paperrank related`, or `paperrank rank`).
{{ config(tags=['related']) }}

with

rankings as (

    select * from {{ ref('paper_rankings') }}

),

subthemes as (

    select * from {{ ref('paper_subthemes') }}

),

computed as (

    select * from {{ ref('int_related_computations') }}

),

venues as (

    select venue from computed
    where part = 'subthemes'

),

counted as (

    select
        rankings.venue,
        rankings.paper_id,
        rankings.category,
        count(subthemes.paper_id) as subtheme_rows

    from rankings
    inner join venues
        on rankings.venue = venues.venue
    left join subthemes
        on
            rankings.venue = subthemes.venue
            and rankings.paper_id = subthemes.paper_id
    group by rankings.venue, rankings.paper_id, rankings.category

),

final as (

    select * from counted
    where subtheme_rows <> 1

)

select * from final
