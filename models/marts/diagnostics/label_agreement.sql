with

papers as (

    select * from {{ ref('int_papers_categorized') }}

),

labels as (

    select * from {{ ref('stg_raw__paper_labels') }}

),

in_taxonomy as (

    select * from labels
    where taxonomy = {{ sql_string(var('taxonomy')) }}

),

-- each model's latest label of the paper, by stg_raw__paper_labels' one rule (label_recency)
latest_per_model as (

    select
        *,
        row_number() over (
            partition by paper_id, label_model
            order by label_recency
        ) as recency

    from in_taxonomy

),

other_labels as (

    select * from latest_per_model
    where recency = 1

),

final as (

    select
        papers.venue,
        papers.paper_id,
        papers.primary_area,
        papers.category,
        papers.label_model,
        papers.label_category,
        papers.label_confidence,
        other_labels.label_model as other_label_model,
        other_labels.category as other_category,
        other_labels.label_confidence as other_label_confidence,
        papers.label_category = other_labels.category as is_agreeing

    from papers
    inner join other_labels
        on
            papers.paper_id = other_labels.paper_id
            and papers.label_model <> other_labels.label_model

)

select * from final
