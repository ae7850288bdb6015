-- Every paper with a sub-theme (every paper of a ranked category) of a venue whose maps were
-- computed (for this build's taxonomy and label model) is on the venue's map and on its
-- category's map, once each. A paper added, or moved to another category, after `paperrank
-- related` ran is named here with the map it is missing from (run `paperrank related`, or
-- `paperrank rank`).
{{ config(tags=['related']) }}

with

subthemes as (

    select * from {{ ref('paper_subthemes') }}

),

positions as (

    select * from {{ ref('paper_map_positions') }}

),

computed as (

    select * from {{ ref('int_related_computations') }}

),

venues as (

    select venue from computed
    where part = 'layouts'

),

counted as (

    select
        subthemes.venue,
        subthemes.paper_id,
        subthemes.category,
        count(*) filter (where positions.map_category is null) as venue_map_rows,
        count(*) filter (where positions.map_category = subthemes.category) as category_map_rows

    from subthemes
    inner join venues
        on subthemes.venue = venues.venue
    left join positions
        on
            subthemes.venue = positions.venue
            and subthemes.paper_id = positions.paper_id
    group by subthemes.venue, subthemes.paper_id, subthemes.category

),

final as (

    select * from counted
    where venue_map_rows <> 1 or category_map_rows <> 1

)

select * from final
