{#- The reviewer bootstrap's random draws (empty when rank_uncertainty_method is normal):
    one row per (ranked paper, replicate, draw d = 1..n), the review that slot redraws. Slot
    (paper, replicate, d) sits at position replicate * 2^16 + d of the paper's SplitMix64
    stream (macros/random/splitmix64.sql) and takes review number (draw mod n) + 1 of the
    paper, in review_id order. Empty when `auto` chooses the normal method from the data: then
    no paper is read, so that nothing is numbered, hashed or joined for it. -#}
-- depends_on: {{ ref('int_papers_ranked') }}
{%- set settings = rank_uncertainty_settings() -%}
{%- set is_bootstrap = rank_uncertainty_method() == 'bootstrap' -%}
{%- set scores = raw_score_columns() -%}
{%- set slot = ['category_number', 'paper_number', 'review_count', 'replicate'] %}

with

papers as (

    select * from {{ ref('int_ranked_papers_numbered') }}
    {%- if not is_bootstrap %}
        where false
    {%- endif %}

),

reviews as (

    select * from {{ ref('stg_raw__reviews') }}

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
final as (

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

)

select * from final
