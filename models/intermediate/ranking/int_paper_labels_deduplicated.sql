{%- set label_model = var('label_model') -%}

with

labels as (

    select * from {{ ref('stg_raw__paper_labels') }}

),

in_taxonomy as (

    select {{ star_except('labels', ['label_recency']) }} from labels
    where
        labels.taxonomy = {{ sql_string(var('taxonomy')) }}{% if label_model is not none %}
            and labels.label_model = {{ sql_string(label_model) }}{% endif %}

),

-- each paper's latest label among those considered: the first in the one order of "latest"
-- (label_recency_order, by which stg_raw__paper_labels numbers every label), so the label of
-- lowest label_recency. Ordered by the keys alone and joined back on the label's id: a window
-- that carried every column of the label, or numbered every label of every taxonomy first,
-- cost more than the rest of the ranking's inputs at 1M labels
paper_latest as (

    select
        label_id,
        row_number() over (
            partition by paper_id
            order by {{ label_recency_order() }}
        ) as recency,
        count(*) over (partition by paper_id) as label_count

    from in_taxonomy

),

latest as (

    select
        in_taxonomy.*,
        paper_latest.label_count

    from in_taxonomy
    inner join paper_latest
        on in_taxonomy.label_id = paper_latest.label_id
    where paper_latest.recency = 1

)

select * from latest
