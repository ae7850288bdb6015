{#- Every reviewed submission of a venue, accepted or not, with its outcomes (decision tier,
    citations) and, per review field, what the empirical-Bayes prior and the validity marts need:
    the paper's review count, mean and within-paper sum of squares. A table: the prior fit, the
    posteriors and the validity scores all read it. Its category is the ranked category of an
    accepted paper (int_papers_categorized, overrides applied), or the label of another paper
    when its taxonomy ranks that category (classifiers label accepted papers only, so this is
    usually null outside them). -#}
{{ config(materialized='table') }}
{%- set venue = var('venue') -%}
{%- set fields = outcome_fields() -%}

with

papers as (

    select * from {{ ref('stg_raw__papers') }}

),

reviews as (

    select * from {{ ref('stg_raw__reviews') }}

),

categorized as (

    select * from {{ ref('int_papers_categorized') }}

),

labels as (

    select * from {{ ref('int_paper_labels_deduplicated') }}

),

taxonomies as (

    select * from {{ ref('taxonomies') }}

),

ranked_categories as (

    select category from taxonomies
    where taxonomy = {{ sql_string(var('taxonomy')) }} and is_ranked

),

per_paper as (

    select
        paper_id,
        count(*) as review_count,
        {%- for field in fields %}
            count({{ field }}) as {{ field }}_n,
            avg({{ field }}) as {{ field }}_mean,
            var_pop({{ field }}) * count({{ field }}) as {{ field }}_ss,
        {%- endfor %}
        {{ rating_std('rating') }} as rating_std

    from reviews
    group by paper_id

),

final as (

    select
        papers.venue,
        papers.paper_id,
        papers.is_accepted,
        papers.decision_tier,
        papers.citations,
        coalesce(
            case when categorized.is_ranked then categorized.category end,
            case when not papers.is_accepted then ranked_categories.category end
        ) as category,
        per_paper.review_count,
        {%- for field in fields %}
            per_paper.{{ field }}_n,
            per_paper.{{ field }}_mean,
            per_paper.{{ field }}_ss,
        {%- endfor %}
        per_paper.rating_std

    from papers
    inner join per_paper
        on papers.paper_id = per_paper.paper_id
    left join categorized
        on papers.paper_id = categorized.paper_id
    left join labels
        on papers.paper_id = labels.paper_id
    left join ranked_categories
        on labels.category = ranked_categories.category
    {%- if venue is not none %}
        where papers.venue = {{ sql_string(venue) }}
    {%- endif %}

)

select * from final
