{#- The bootstrap resamples of marts.ranking_validity, in a model of their own: for every
    group of int_validity_groups, replicate 0 is the sample itself and replicates
    1..validity_replicates draw as many papers with replacement. Slot j of replicate r picks
    paper number (bits mod n) + 1, bits = the group's SplitMix64 stream (macros/random/splitmix64.sql;
    key = venue | category | population | outcome, the text key of the group, seed =
    outcomes_seed) at position r * 2^24 + j. One row per draw, integers only: (sample_group, replicate, paper_number).
    Empty when the closed form is in force (outcomes_method closed_form, or `auto` choosing it)
    (macros/outcomes/outcome_method.sql), whose intervals need no resamples. -#}
{{ config(materialized='table') }}
{%- set is_resample = outcome_method('validity') == 'resample' -%}
{%- set settings = outcome_settings() -%}
{%- set slot = ['sample_group', 'replicate', 'group_size'] %}
-- depends_on: {{ ref('int_validity_scores') }}

with

validity_groups as (

    select * from {{ ref('int_validity_groups') }}

),

group_papers as (

    select * from {{ ref('int_validity_group_papers') }}

),

{{ mixed_seed_ctes('seed_mixed', settings.seed) }},

replicates as (

    select * from {{ integer_series('replicate', settings.replicates) }}

),

draw_slots as (

    select
        validity_groups.sample_group,
        replicates.replicate,
        validity_groups.group_size,
        {{ xor64(md5_key64(
            "validity_groups.venue || '|' || coalesce(validity_groups.category, '') || '|' "
            ~ "|| validity_groups.population || '|' || validity_groups.outcome"
        ), 'seed_mixed.random_bits') }} as stream_state,
        replicates.replicate * 16777216 + group_papers.paper_number as stream_position

    from group_papers
    inner join validity_groups
        on group_papers.sample_group = validity_groups.sample_group
    cross join replicates
    cross join seed_mixed
    where {{ 'true' if is_resample else 'false' }}

),

{{ splitmix64_ctes('draws', 'draw_slots', slot) }},

final as (

    select
        sample_group,
        0 as replicate,
        paper_number
    from group_papers
    where {{ 'true' if is_resample else 'false' }}
    union all
    select
        sample_group,
        replicate,
        cast({{ mod64('random_bits', 'group_size') }} + 1 as bigint) as paper_number

    from draws

)

select * from final
