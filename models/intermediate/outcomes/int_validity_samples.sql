{#- The bootstrap resamples of marts.ranking_validity, in a model of their own: for every
    (venue, category, population, outcome) group of the papers that outcome is defined for,
    replicate 0 is the sample itself and replicates 1..validity_replicates draw as many papers
    with replacement (sample_group numbers the groups, for
    the validity mart's integer partition keys). Slot j of replicate r picks paper number (bits mod n) + 1 (papers numbered
    by paper_id), bits = the group's SplitMix64 stream (macros/splitmix64.sql; key = venue | category
    | population | outcome, seed = outcomes_seed) at position r * 2^24 + j. One row per draw. -#}
{{ config(materialized='table') }}
{%- set settings = outcome_settings() -%}
{%- set slot = ['group_key', 'replicate', 'group_size'] -%}

with

scores as (

    select * from {{ ref('int_validity_scores') }}

),

eligible as (

    select venue, category, population, 'accepted' as outcome, paper_id from scores
    where outcome_accepted is not null
    union all
    select venue, category, population, 'top_tier' as outcome, paper_id from scores
    where outcome_top_tier is not null
    union all
    select venue, category, population, 'citations' as outcome, paper_id from scores
    where citations is not null

),

numbered as (

    select
        *,
        venue || '|' || coalesce(category, '') || '|' || population || '|' || outcome as group_key,
        dense_rank() over (order by venue, category, population, outcome) as sample_group,
        row_number() over (
            partition by venue, category, population, outcome order by paper_id
        ) as paper_number,
        count(*) over (partition by venue, category, population, outcome) as group_size

    from eligible

),

{{ mixed_seed_ctes('seed_mixed', settings.seed) }},

replicates as (

    select * from {{ integer_series('replicate', settings.replicates) }}

),

draw_slots as (

    select
        numbered.group_key,
        replicates.replicate,
        numbered.group_size,
        {{ xor64(md5_key64('numbered.group_key'), 'seed_mixed.random_bits') }} as stream_state,
        replicates.replicate * 16777216 + numbered.paper_number as stream_position

    from numbered
    cross join replicates
    cross join seed_mixed

),

{{ splitmix64_ctes('draws', 'draw_slots', slot) }},

resampled as (

    select
        numbered.venue,
        numbered.category,
        numbered.population,
        numbered.outcome,
        numbered.sample_group,
        draws.replicate,
        numbered.paper_id

    from draws
    inner join numbered
        on
            draws.group_key = numbered.group_key
            and numbered.paper_number = {{ mod64('draws.random_bits', 'draws.group_size') }} + 1

),

final as (

    select venue, category, population, outcome, sample_group, 0 as replicate, paper_id from numbered
    union all
    select * from resampled

)

select * from final
