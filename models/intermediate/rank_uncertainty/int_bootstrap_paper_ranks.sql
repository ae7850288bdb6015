{#- The reviewer bootstrap's rankings (disabled when rank_uncertainty_method is normal): the
    signals of each paper's redrawn reviews (int_bootstrap_review_draws), recomputed as
    int_reviews_aggregated does, standardised within venue, category and replicate, weighted by
    the weight set and ranked with the production tie-breakers. Materialized: both uncertainty
    marts read it, and it is the costly step. -#}
{{ config(materialized='table', enabled=var('rank_uncertainty_method') != 'normal') }}
{%- set signals = ranking_signals() %}

with

papers as (

    select * from {{ ref('int_ranked_papers_numbered') }}

),

drawn_reviews as (

    select * from {{ ref('int_bootstrap_review_draws') }}

),

weight_set as (

    select * from {{ ref('int_weight_set') }}

),

-- the signals of the redrawn reviews, with the definitions of int_reviews_aggregated
resampled as (

    select
        category_number,
        paper_number,
        replicate,
        {%- for signal in signals %}
            {{ review_signal(signal) }} as {{ signal }} {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from drawn_reviews
    group by category_number, paper_number, replicate

),

{{ zscore_exact_ctes('standardized', 'resampled', ['category_number', 'replicate'],
    ['category_number', 'paper_number', 'replicate', 'rating_mean'], signals) }},

scored as (

    select
        standardized.category_number,
        standardized.paper_number,
        standardized.replicate,
        standardized.rating_mean,
        {% for signal in signals -%}
            weight_set.w_{{ signal }} * standardized.z_{{ signal }} {%- if not loop.last %} + {% endif %}
        {%- endfor %} as replicate_composite

    from standardized
    cross join weight_set

),

ranked as (

    select
        category_number,
        paper_number,
        replicate,
        replicate_composite,
        row_number() over (
            partition by category_number, replicate
            order by {{ ranking_order('replicate_composite', paper_id='paper_number') }}
        ) as replicate_rank

    from scored

),

final as (

    select
        papers.venue,
        papers.category,
        papers.paper_id,
        ranked.replicate,
        ranked.replicate_composite,
        ranked.replicate_rank

    from ranked
    inner join papers
        on ranked.paper_number = papers.paper_number

)

select * from final
