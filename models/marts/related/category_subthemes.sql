with

subthemes as (

    select * from {{ ref('stg_derived__category_subthemes') }}

),

computed as (

    select * from {{ ref('int_related_computations') }}

),

venues as (

    select venue from computed
    where part = 'subthemes'

),

final as (

    select
        subthemes.venue,
        subthemes.taxonomy,
        subthemes.category,
        cast(subthemes.subtheme as bigint) as subtheme,
        subthemes.subtheme_label,
        subthemes.subtheme_terms,
        cast(subthemes.paper_count as bigint) as paper_count

    from subthemes
    inner join venues
        on subthemes.venue = venues.venue
    where
        subthemes.taxonomy = {{ sql_string(var('taxonomy')) }}
        and subthemes.label_model = {{ related_label_model() }}

)

select * from final
