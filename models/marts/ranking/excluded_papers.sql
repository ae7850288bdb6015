with

papers as (

    select * from {{ ref('int_papers_categorized') }}

),

paper_texts as (

    select * from {{ ref('stg_raw__papers') }}

),

excluded as (

    select * from papers
    where not is_ranked

),

final as (

    select
        excluded.venue,
        excluded.paper_id,
        paper_texts.title,
        paper_texts.authors,
        paper_texts.abstract,
        excluded.primary_area,
        excluded.status,
        excluded.category,
        excluded.category_source,
        excluded.label_category,
        excluded.label_model,
        excluded.label_rationale,
        excluded.review_count,
        excluded.exclusion_reason,
        case excluded.exclusion_reason
            when 'primary_area_override'
                then
                    'primary area "' || excluded.primary_area || '" is overridden into '
                    || excluded.category || ', which is not ranked: ' || excluded.override_reason
            when 'category_not_ranked'
                then
                    'category ' || excluded.category || ' is not ranked in taxonomy '
                    || {{ sql_string(var('taxonomy')) }}
            when 'no_label'
                then
                    'no label for taxonomy ' || {{ sql_string(var('taxonomy')) }}
                    || ' (run python -m paperrank.classify run or import labels)'
            when 'unknown_category'
                then
                    'label ' || excluded.category || ' is not a category of taxonomy '
                    || {{ sql_string(var('taxonomy')) }}
            when 'no_reviews'
                then 'no official reviews loaded, so there is nothing to rank it by'
        end as exclusion_detail

    from excluded
    inner join paper_texts
        on excluded.paper_id = paper_texts.paper_id

)

select * from final
