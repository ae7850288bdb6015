{%- set label_model = var('label_model') -%}

with

labels as (

    select * from {{ ref('stg_raw__paper_labels') }}

),

in_taxonomy as (

    select * from labels
    where
        taxonomy = {{ sql_string(var('taxonomy')) }}{% if label_model is not none %}
            and label_model = {{ sql_string(label_model) }}{% endif %}

),

-- each paper's latest label among those considered is the one of lowest label_recency (the one
-- rule, stg_raw__paper_labels); found by a narrow group-by and a join back, which at 1M labels
-- cost less than a window that carries every column of the label
paper_latest as (

    select
        paper_id,
        min(label_recency) as label_recency,
        count(*) as label_count

    from in_taxonomy
    group by paper_id

),

latest as (

    select
        {{ star_except('in_taxonomy', ['label_recency']) }},
        paper_latest.label_count

    from in_taxonomy
    inner join paper_latest
        on
            in_taxonomy.paper_id = paper_latest.paper_id
            and in_taxonomy.label_recency = paper_latest.label_recency

)

select * from latest
