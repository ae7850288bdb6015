with

papers as (

    select * from {{ ref('int_papers_categorized') }}

),

final as (

    select
        venue,
        paper_id,
        title,
        authors,
        abstract,
        primary_area,
        status,
        category,
        category_source,
        label_category,
        label_model,
        label_rationale,
        review_count,
        exclusion_reason,
        case exclusion_reason
            when 'primary_area_override'
                then
                    'primary area "' || primary_area || '" is overridden into ' || category
                    || ', which is not ranked: ' || override_reason
            when 'category_not_ranked'
                then
                    'category ' || category || ' is not ranked in taxonomy '
                    || {{ sql_string(var('taxonomy')) }}
            when 'no_label'
                then
                    'no label for taxonomy ' || {{ sql_string(var('taxonomy')) }}
                    || ' (run python -m classify run or import labels)'
            when 'unknown_category'
                then
                    'label ' || category || ' is not a category of taxonomy '
                    || {{ sql_string(var('taxonomy')) }}
            when 'no_reviews'
                then 'no official reviews loaded, so there is nothing to rank it by'
        end as exclusion_detail

    from papers
    where not is_ranked

)

select * from final
