with

quality as (

    select * from {{ ref('stg_derived__layout_quality') }}

),

computed as (

    select * from {{ ref('int_related_computations') }}

),

venues as (

    select venue from computed
    where part = 'layouts'

),

-- how faithful each map of the build is to the texts (paperrank.related.layout), as the build
-- reports it
final as (

    select
        quality.venue,
        quality.taxonomy,
        quality.trustworthiness,
        quality.seconds,
        cast(quality.papers as bigint) as papers,
        nullif(quality.layout_category, '') as map_category

    from quality
    inner join venues
        on quality.venue = venues.venue
    where
        quality.taxonomy = {{ sql_string(var('taxonomy')) }}
        and quality.label_model = {{ related_label_model() }}

)

select * from final
