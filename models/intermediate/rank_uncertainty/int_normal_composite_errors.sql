{#- The normal method's standard error of each ranked paper's composite (disabled when
    rank_uncertainty_method is bootstrap): the spread of its reviews' weighted, standardised
    deviations from its means, as a bootstrap of the mean would see it. -#}
{{ config(enabled=var('rank_uncertainty_method') != 'bootstrap') }}
{%- set signals = ranking_signals() -%}
{%- set mean_signals = signals | select('ne', 'rating_std') | list -%}

with

rankings as (

    select * from {{ ref('paper_rankings') }}

),

reviews as (

    select * from {{ ref('stg_raw__reviews') }}

),

weight_set as (

    select * from {{ ref('int_weight_set') }}

),

-- the category sample std of each signal: the denominators of the paper's z-scores
{{ zscore_exact_ctes('standardized', 'rankings', ['venue', 'category'], ['paper_id'], mean_signals) }},

-- each review's weighted, standardised deviation from its paper's means (a missing score: 0);
-- the composite's mean-signal part is the mean of these over the paper's reviews
review_deviations as (

    select
        rankings.paper_id,
        {% for signal in mean_signals -%}
            coalesce(
                weight_set.w_{{ signal }} * (reviews.{{ signal[:-5] }} - rankings.{{ signal }})
                / nullif(spread.std_{{ signal }}, 0),
                0
            ) {%- if not loop.last %}
                + {% endif %}
        {%- endfor %} as deviation

    from rankings
    inner join reviews
        on rankings.paper_id = reviews.paper_id
    inner join standardized_spread as spread
        on
            rankings.venue = spread.venue
            and rankings.category = spread.category
    cross join weight_set

),

-- bootstrap standard error of a mean of n redrawn values: sqrt(population variance / n);
-- the squares are summed on the exact fixed-point grid so that the sum is order-free
paper_errors as (

    select
        paper_id,
        sum({{ fixed_point36('deviation * deviation') }}) as deviation_sumsq

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
        sqrt(cast(paper_errors.deviation_sumsq as double) / 68719476736.0) / rankings.review_count
            as composite_se

    from rankings
    inner join paper_errors
        on rankings.paper_id = paper_errors.paper_id

)

select * from final
