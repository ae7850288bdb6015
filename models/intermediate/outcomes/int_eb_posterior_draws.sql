{#- Seeded draws from each ranked paper's posterior (int_eb_posteriors), for the posterior
    expected rank and P(top-N) of marts.paper_posterior_rankings. Only the fields the weight
    set weighs, of papers whose prior is fitted, are drawn.

    Draw d = 1..eb_draws of field k (its index in outcome_fields(), from 0) of a paper is
    theta = posterior mean + posterior sd * z, with z a standard normal by Box-Muller from two
    uniforms of the paper's SplitMix64 stream (macros/random/splitmix64.sql; key = paper_id,
    seed = outcomes_seed) at positions d * 2^8 + 2k and d * 2^8 + 2k + 1:
    z = sqrt(-2 ln u1) cos(2 pi u2). Bit-identical on every run and with any number of threads.
    Empty when the closed form is in force (outcomes_method closed_form, or `auto` choosing it)
    (macros/outcomes/outcome_method.sql). -#}
{{ config(materialized='table') }}
{%- set is_resample = outcome_method('posterior') == 'resample' -%}
{%- set settings = outcome_settings() -%}
{%- set fields = outcome_fields() -%}
{%- set slot = ['venue', 'category', 'paper_id', 'field', 'draw', 'half'] -%}

with

posteriors as (

    select * from {{ ref('int_eb_posteriors') }}

),

rankings as (

    select * from {{ ref('int_papers_ranked') }}

),

weight_set as (

    select * from {{ ref('int_weight_set') }}

),

weighted_fields as (

    {%- for field in fields %}
        select '{{ field }}' as field, {{ loop.index0 }} as field_index
        from weight_set
        where w_{{ field }}_mean <> 0
        {%- if not loop.last %}
            union all
        {%- endif %}
    {%- endfor %}

),

{{ mixed_seed_ctes('seed_mixed', settings.seed) }},

drawn_papers as (

    select
        rankings.venue,
        rankings.category,
        rankings.paper_id,
        posteriors.field,
        weighted_fields.field_index,
        posteriors.posterior_mean,
        posteriors.posterior_sd,
        {{ xor64(md5_key64('rankings.paper_id'), 'seed_mixed.random_bits') }} as stream_state

    from rankings
    inner join posteriors
        on rankings.paper_id = posteriors.paper_id
    inner join weighted_fields
        on posteriors.field = weighted_fields.field
    cross join seed_mixed
    where posteriors.prior_scope is not null and {{ 'true' if is_resample else 'false' }}

),

draw_numbers as (

    select * from {{ integer_series('draw', settings.draws) }}

),

halves as (

    select 0 as half
    union all
    select 1 as half

),

draw_slots as (

    select
        drawn_papers.venue,
        drawn_papers.category,
        drawn_papers.paper_id,
        drawn_papers.field,
        draw_numbers.draw,
        halves.half,
        drawn_papers.stream_state,
        draw_numbers.draw * 256 + 2 * drawn_papers.field_index + halves.half as stream_position

    from drawn_papers
    cross join draw_numbers
    cross join halves

),

{{ splitmix64_ctes('uniform_bits', 'draw_slots', slot) }},

normals as (

    select
        venue,
        category,
        paper_id,
        field,
        draw,
        sqrt(-2 * ln(max(case when half = 0 then {{ unit_interval64('random_bits') }} end)))
        * cos(2 * pi() * max(case when half = 1 then {{ unit_interval64('random_bits') }} end)) as z

    from uniform_bits
    group by venue, category, paper_id, field, draw

),

final as (

    select
        normals.venue,
        normals.category,
        normals.paper_id,
        normals.field,
        normals.draw,
        drawn_papers.posterior_mean + drawn_papers.posterior_sd * normals.z as theta

    from normals
    inner join drawn_papers
        on normals.paper_id = drawn_papers.paper_id and normals.field = drawn_papers.field

)

select * from final
