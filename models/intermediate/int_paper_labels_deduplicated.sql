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

ranked as (

    select
        *,
        count(*) over (partition by paper_id) as label_count,
        row_number() over (
            partition by paper_id order by label_recency
        ) as recency

    from in_taxonomy

),

latest as (

    select {{ star_except('ranked', ['recency', 'label_recency']) }} from ranked
    where ranked.recency = 1

)

select * from latest
