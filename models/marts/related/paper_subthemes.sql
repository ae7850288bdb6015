with

assigned as (

    select * from {{ ref('stg_derived__paper_subthemes') }}

),

subthemes as (

    select * from {{ ref('category_subthemes') }}

),

categorized as (

    select * from {{ ref('int_papers_categorized') }}

),

in_build as (

    select
        assigned.venue,
        assigned.paper_id,
        assigned.category,
        assigned.subtheme

    from assigned
    where
        assigned.taxonomy = {{ sql_string(var('taxonomy')) }}
        and assigned.label_model = {{ related_label_model() }}

),

-- the papers of this build's ranked categories, each with the sub-theme it was clustered into
-- under the same category (a paper whose category changed since has no row, and the
-- test related__every_ranked_paper_has_a_subtheme names it)
final as (

    select
        categorized.venue,
        categorized.paper_id,
        categorized.category,
        subthemes.subtheme,
        subthemes.subtheme_label,
        categorized.is_ranked

    from categorized
    inner join in_build
        on
            categorized.venue = in_build.venue
            and categorized.paper_id = in_build.paper_id
            and categorized.category = in_build.category
    inner join subthemes
        on
            in_build.venue = subthemes.venue
            and in_build.category = subthemes.category
            and in_build.subtheme = subthemes.subtheme

)

select * from final
