{#- Materialized: both uncertainty marts read it, and it is the costly step. -#}
{{ config(materialized='table') }}
{%- set settings = rank_uncertainty_settings() -%}
{%- set is_bootstrap = rank_uncertainty_method() == 'bootstrap' -%}
{%- set signals = ranking_signals() -%}
{%- set scores = ['contribution', 'rating', 'confidence', 'soundness', 'presentation'] -%}
{%- set slot = ['category_number', 'paper_number', 'review_count', 'replicate'] -%}

with

rankings as (

    select * from {{ ref('paper_rankings') }}

),

reviews as (

    select * from {{ ref('stg_raw__reviews') }}

),

weights as (

    select * from {{ ref('composite_weights') }}

),

weight_set as (

    {{ weight_columns('weights') }}

),

-- integer keys: paper_number follows paper_id order, so it breaks ties as paper_id does
papers as (

    select
        venue,
        category,
        paper_id,
        review_count,
        row_number() over (order by paper_id) as paper_number,
        dense_rank() over (order by venue, category) as category_number

    from rankings

),

{{ mixed_seed_ctes('seed_mixed', settings.seed) }},

-- every review of a ranked paper, numbered 1..n within its paper in review_id order
numbered_reviews as (

    select
        papers.paper_number,
        {%- for column in scores %}
            reviews.{{ column }},
        {%- endfor %}
        row_number() over (partition by reviews.paper_id order by reviews.review_id) as review_number

    from reviews
    inner join papers
        on reviews.paper_id = papers.paper_id
    {%- if not is_bootstrap %}
        where false
    {%- endif %}

),

paper_streams as (

    select
        papers.category_number,
        papers.paper_number,
        papers.review_count,
        {{ xor64(md5_key64('papers.paper_id'), 'seed_mixed.random_bits') }} as stream_state

    from papers
    cross join seed_mixed

),

replicates as (

    select * from {{ integer_series('replicate', settings.replicates) }}

),

-- one slot per (paper, replicate, draw d = 1..n); its stream position is replicate * 2^16 + d
draw_slots as (

    select
        paper_streams.category_number,
        paper_streams.paper_number,
        paper_streams.review_count,
        replicates.replicate,
        paper_streams.stream_state,
        replicates.replicate * 65536 + numbered_reviews.review_number as stream_position

    from paper_streams
    inner join numbered_reviews
        on paper_streams.paper_number = numbered_reviews.paper_number
    cross join replicates

),

{{ splitmix64_ctes('draws', 'draw_slots', slot) }},

-- each slot takes review number (draw mod n) + 1 of its paper
drawn_reviews as (

    select
        draws.category_number,
        draws.paper_number,
        draws.replicate,
        {%- for column in scores %}
            picked.{{ column }} {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from draws
    inner join numbered_reviews as picked
        on
            draws.paper_number = picked.paper_number
            and picked.review_number = {{ mod64('draws.random_bits', 'draws.review_count') }} + 1

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
