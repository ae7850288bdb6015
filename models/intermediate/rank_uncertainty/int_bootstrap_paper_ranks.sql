{#- The reviewer bootstrap's rankings (empty when rank_uncertainty_method is normal): the
    signals of each paper's redrawn reviews (int_bootstrap_review_draws), recomputed as
    int_reviews_aggregated does, standardised within venue, category and replicate, weighted by
    the weight set and ranked with the production tie-breakers. Materialized: both uncertainty
    marts read it, and it is the costly step.

    Redrawing n of n reviews reproduces only (n - 1)/n of their variance, so each redrawn
    signal's deviation from the paper's point signal is scaled by sqrt(n / (n - 1))
    (macros/statistics/small_sample_factor.sql; n = the reviews that gave the signal's score):
    a mean becomes point + f (redrawn - point), and rating_std, a spread, f * redrawn. That is
    redrawing from the reviews' deviations scaled by f, done after the exact integer means
    rather than before, so that no sum depends on row order.
    Empty when `auto` chooses the normal method from the data: then no paper is read (the
    points' join to the reviews' aggregates cost a second at 1M papers for no row). -#}
{{ config(materialized='table') }}
-- depends_on: {{ ref('int_papers_ranked') }}
{%- set signals = ranking_signals() %}
{%- set is_bootstrap = rank_uncertainty_method() == 'bootstrap' %}

with

papers as (

    select * from {{ ref('int_ranked_papers_numbered') }}
    {%- if not is_bootstrap %}
        where false
    {%- endif %}

),

drawn_reviews as (

    select * from {{ ref('int_bootstrap_review_draws') }}

),

aggregated as (

    select * from {{ ref('int_reviews_aggregated') }}

),

weight_set as (

    select * from {{ ref('int_weight_set') }}

),

-- each paper's point signals and, per signal, how many of its reviews gave that score
-- (int_reviews_aggregated's): the centre and the n of the small-sample scaling
paper_points as (

    select
        papers.paper_number,
        {%- for signal in signals %}
            aggregated.{{ signal }} as point_{{ signal }},
            aggregated.{{ signal_score(signal) }}_count as n_{{ signal }} {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from papers
    inner join aggregated
        on papers.paper_id = aggregated.paper_id

),

-- the signals of the redrawn reviews, with the definitions of int_reviews_aggregated
redrawn as (

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

-- the redrawn deviations from the point signals, scaled by sqrt(n / (n - 1))
resampled as (

    select
        redrawn.category_number,
        redrawn.paper_number,
        redrawn.replicate,
        {%- for signal in signals %}
            {%- set factor = small_sample_factor('paper_points.n_' ~ signal) %}
            {%- if signal == 'rating_std' %}
                {{ factor }} * redrawn.{{ signal }} as {{ signal }}
            {%- else %}
                paper_points.point_{{ signal }}
                + {{ factor }} * (redrawn.{{ signal }} - paper_points.point_{{ signal }}) as {{ signal }}
            {%- endif %}
            {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from redrawn
    inner join paper_points
        on redrawn.paper_number = paper_points.paper_number

),

-- exact per-(category, replicate) sums: the z-scores of macros/statistics/zscore.sql, as
-- paper_rankings standardises the point signals
replicate_sums as (

    select
        category_number,
        replicate,
        {%- for signal in signals %}
            {{ zscore_sums(signal) }} {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from resampled
    group by category_number, replicate

),

standardized as (

    select
        resampled.category_number,
        resampled.paper_number,
        resampled.replicate,
        resampled.rating_mean,
        {%- for signal in signals %}
            {{ zscore_from_sums('resampled.' ~ signal, 'replicate_sums', signal) }} as z_{{ signal }}
            {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from resampled
    inner join replicate_sums
        on
            resampled.category_number = replicate_sums.category_number
            and resampled.replicate = replicate_sums.replicate

),

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
