with

positions as (

    select * from {{ ref('stg_derived__paper_layouts') }}

),

computed as (

    select * from {{ ref('int_related_computations') }}

),

subthemes as (

    select * from {{ ref('paper_subthemes') }}

),

categorized as (

    select * from {{ ref('int_papers_categorized') }}

),

venues as (

    select venue from computed
    where part = 'layouts'

),

in_build as (

    select
        positions.venue,
        positions.taxonomy,
        positions.layout_category,
        positions.paper_id,
        positions.x,
        positions.y

    from positions
    inner join venues
        on positions.venue = venues.venue
    where
        positions.taxonomy = {{ sql_string(var('taxonomy')) }}
        and positions.label_model = {{ related_label_model() }}

),

-- each paper on the venue's map (map_category null) and on its ranked category's, with its
-- category (the venue's map is coloured by it) and its sub-theme (a category's map by that)
final as (

    select
        in_build.venue,
        in_build.taxonomy,
        in_build.paper_id,
        in_build.x,
        in_build.y,
        categorized.category,
        subthemes.subtheme,
        subthemes.subtheme_label,
        nullif(in_build.layout_category, '') as map_category

    from in_build
    left join categorized
        on
            in_build.venue = categorized.venue
            and in_build.paper_id = categorized.paper_id
    left join subthemes
        on
            in_build.venue = subthemes.venue
            and in_build.paper_id = subthemes.paper_id

)

select * from final
