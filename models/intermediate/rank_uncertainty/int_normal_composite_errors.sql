{#- The standard error of each ranked paper's composite: the spread of its reviews' weighted,
    standardised deviations from its means, in the sample-variance form (sqrt(sum of squares /
    (n (n - 1))), macros/statistics/small_sample_factor.sql), as the corrected review bootstrap
    sees it. The normal
    method's cutoffs and the rank confidence sets (models/intermediate/rank_confidence_sets/)
    both read it, so it is built whatever rank_uncertainty_method says. A table: its readers
    (the cutoffs and the rank intervals of paper_rank_uncertainty, each rank-set model) would
    each join the reviews again through a view; at 1M papers that was half of
    paper_rank_uncertainty's time. -#}
{{ config(materialized='table') }}
{%- set signals = ranking_signals() -%}
{%- set mean_signals = signals | select('ne', 'rating_std') | list -%}

with

rankings as (

    select * from {{ ref('int_papers_ranked') }}

),

reviews as (

    select * from {{ ref('stg_raw__reviews') }}

),

weight_set as (

    select * from {{ ref('int_weight_set') }}

),

-- exact per-category sums of each mean signal, as paper_rankings standardises them
category_sums as (

    select
        venue,
        category,
        {%- for signal in mean_signals %}
            {{ zscore_sums(signal) }} {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from rankings
    group by venue, category

),

-- each review's weighted, standardised deviation from its paper's means, z(review) - z(mean)
-- with the ranking's z-scores (a missing score: 0); the composite's mean-signal part is the
-- mean of these over the paper's reviews
review_deviations as (

    select
        rankings.paper_id,
        {% for signal in mean_signals -%}
            case
                when reviews.{{ signal[:-5] }} is null then 0
                else weight_set.w_{{ signal }} * (
                    {{ zscore_from_sums('reviews.' ~ signal[:-5], 'category_sums', signal) }}
                    - {{ zscore_from_sums('rankings.' ~ signal, 'category_sums', signal) }}
                )
            end {%- if not loop.last %}
                + {% endif %}
        {%- endfor %} as deviation

    from rankings
    inner join reviews
        on rankings.paper_id = reviews.paper_id
    inner join category_sums
        on
            rankings.venue = category_sums.venue
            and rankings.category = category_sums.category
    cross join weight_set

),

-- the squares of the deviations, summed exactly (order_free_sum) so that the sum does not depend on row order
paper_errors as (

    select
        paper_id,
        {{ order_free_sum('deviation * deviation') }} as deviation_sumsq

    from review_deviations
    group by paper_id

),

final as (

    select
        rankings.venue,
        rankings.category,
        rankings.paper_id,
        rankings.category_rank,
        rankings.category_size,
        rankings.rating_mean,
        rankings.local_top_overall,
        -- the standard error of a mean of n values, sqrt(sample variance / n): sqrt(sum of
        -- squares) / n is the population form, times sqrt(n / (n - 1))
        sqrt(paper_errors.deviation_sumsq) / rankings.review_count
        * {{ small_sample_factor('rankings.review_count') }} as composite_se

    from rankings
    inner join paper_errors
        on rankings.paper_id = paper_errors.paper_id

)

select * from final
