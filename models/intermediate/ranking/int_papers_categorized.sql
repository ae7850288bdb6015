{#- A table, not a view like the other intermediate models: every mart reads it (paper_rankings,
    excluded_papers, category_summary, expert_picks), so the reviews and labels are aggregated
    once per build rather than once per mart. It carries each paper's signals for the ranking,
    but not its long texts (title, authors, abstract, links): writing those for every accepted paper
    costs more than the marts' joins to stg_raw__papers for the rows they show. -#}
{{ config(materialized='table') }}

{%- set venue = var('venue') -%}

with

papers as (

    select * from {{ ref('stg_raw__papers') }}

),

labels as (

    select * from {{ ref('int_paper_labels_deduplicated') }}

),

taxonomies as (

    select * from {{ ref('taxonomies') }}

),

overrides as (

    select * from {{ ref('primary_area_overrides') }}

),

reviews as (

    select * from {{ ref('int_reviews_aggregated') }}

),

accepted as (

    select * from papers
    where
        is_accepted{% if venue is not none %}
            and venue = {{ sql_string(venue) }}{% endif %}

),

taxonomy as (

    select * from taxonomies
    where taxonomy = {{ sql_string(var('taxonomy')) }}

),

taxonomy_overrides as (

    select
        category as override_category,
        reason as override_reason,
        lower(trim(primary_area)) as primary_area_key

    from overrides
    where taxonomy = {{ sql_string(var('taxonomy')) }}

),

categorized as (

    select
        accepted.paper_id,
        accepted.venue,
        accepted.primary_area,
        accepted.status,
        labels.category as label_category,
        labels.label_confidence,
        labels.label_rationale,
        labels.label_model,
        labels.label_prompt_hash,
        taxonomy_overrides.override_reason,
        coalesce(taxonomy_overrides.override_category, labels.category) as category,
        coalesce(reviews.review_count, 0) as review_count,
        {%- for signal in ranking_signals() %}
            reviews.{{ signal }},
        {%- endfor %}
        case
            when taxonomy_overrides.override_category is not null then 'primary_area_override'
            when labels.category is not null then 'label'
        end as category_source

    from accepted
    left join labels
        on accepted.paper_id = labels.paper_id
    left join taxonomy_overrides
        on accepted.primary_area_key = taxonomy_overrides.primary_area_key
    left join reviews
        on accepted.paper_id = reviews.paper_id

),

with_taxonomy as (

    select
        categorized.*,
        taxonomy.slug as category_slug,
        case
            when categorized.category is null then 'no_label'
            when taxonomy.category is null then 'unknown_category'
            when not taxonomy.is_ranked and categorized.category_source = 'primary_area_override'
                then 'primary_area_override'
            when not taxonomy.is_ranked then 'category_not_ranked'
            when categorized.review_count = 0 then 'no_reviews'
        end as exclusion_reason

    from categorized
    left join taxonomy
        on categorized.category = taxonomy.category

),

final as (

    select
        *,
        exclusion_reason is null as is_ranked

    from with_taxonomy

)

select * from final
