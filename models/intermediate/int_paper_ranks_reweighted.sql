{#-
    The ranking under other weight sets: each leave-one-signal-out set (the other weights
    scaled back to the same total |weight|) and `weight_draws` sets drawn around the official
    ones, |w| ~ total * Dirichlet(concentration * |w| / total) with the signs kept. Gamma
    variates: Wilson-Hilferty's cube of a normal at shape a + 1, times u^(1/a) (Marsaglia's
    boost, exact in distribution for the boost and good for any shape a > 0); the normal by
    Box-Muller; uniforms from the SplitMix64 draws (macros/splitmix64.sql) keyed by
    'weight draw <signal>' at positions 4 * draw + 1, 2, 3.
    The z-scores are the official ones: only the weights change. In categories larger than
    `weight_tau_max_papers`, papers that cannot reach a scenario's top-N are left out of it.
-#}
{{ config(materialized='table') }}
{%- set settings = rank_uncertainty_settings() -%}
{%- set signals = ranking_signals() -%}
{%- set terms = [] -%}
{%- for signal in signals -%}
    {%- do terms.append('numbered_scenarios.w_' ~ signal ~ ' * papers.z_' ~ signal) -%}
{%- endfor -%}
{%- set scenario_composite = terms | join(' + ') -%}

with

rankings as (

    select * from {{ ref('paper_rankings') }}

),

weights as (

    select * from {{ ref('composite_weights') }}

),

weight_set as (

    select
        *,
        {% for signal in signals -%}
            abs(w_{{ signal }}) {%- if not loop.last %} + {% endif %}
        {%- endfor %} as total_weight

    from ({{ weight_columns('weights') }}) as official

),

weighted_signals as (

    {% for signal in signals -%}
        select
            '{{ signal }}' as signal_name,
            w_{{ signal }} as weight,
            total_weight
        from weight_set
        where w_{{ signal }} <> 0
        {% if not loop.last %}union all{% endif %}
    {% endfor %}

),

leave_one_out as (

    {% for left_out in signals -%}
        select
            'without {{ left_out }}' as scenario,
            'leave_one_out' as scenario_kind,
            '{{ left_out }}' as left_out_signal,
            cast(null as bigint) as draw,
            {%- for signal in signals %}
                {%- if signal == left_out %}
                    0.0 as w_{{ signal }}
                {%- else %}
                    w_{{ signal }} * total_weight / nullif(total_weight - abs(w_{{ left_out }}), 0)
                        as w_{{ signal }}
                {%- endif %}
                {%- if not loop.last %},{% endif %}
            {%- endfor %}
        from weight_set
        where w_{{ left_out }} <> 0
        {% if not loop.last %}union all{% endif %}
    {% endfor %}

),

{{ mixed_seed_ctes('seed_mixed', settings.seed) }},

draws as (

    select * from {{ integer_series('draw', settings.weight_draws) }}

),

uniform_slots as (

    select
        weighted_signals.signal_name,
        weighted_signals.weight,
        weighted_signals.total_weight,
        draws.draw,
        parts.part,
        {{ xor64(md5_key64("'weight draw ' || weighted_signals.signal_name"), 'seed_mixed.random_bits') }}
            as stream_state,
        4 * draws.draw + parts.part as stream_position

    from weighted_signals
    cross join draws
    cross join {{ integer_series('part', 3) }} as parts
    cross join seed_mixed

),

{{ splitmix64_ctes('uniform_bits', 'uniform_slots',
    ['signal_name', 'weight', 'total_weight', 'draw', 'part']) }},

uniforms as (

    select
        signal_name,
        weight,
        draw,
        {{ settings.weight_concentration }} * abs(weight) / total_weight as shape,
        max(case when part = 1 then {{ unit_interval64('random_bits') }} end) as u1,
        max(case when part = 2 then {{ unit_interval64('random_bits') }} end) as u2,
        max(case when part = 3 then {{ unit_interval64('random_bits') }} end) as u3

    from uniform_bits
    group by signal_name, weight, total_weight, draw

),

gamma_draws as (

    select
        signal_name,
        weight,
        draw,
        (shape + 1) * power(greatest(
            1 - 1 / (9 * (shape + 1))
            + sqrt(-2 * ln(u1)) * cos(2 * pi() * u2) / sqrt(9 * (shape + 1)),
            0
        ), 3) * power(u3, 1 / shape) as gamma

    from uniforms

),

-- wide, so that every draw's total is summed in the same (signal) order
drawn as (

    select
        gamma_draws.draw,
        {%- for signal in signals %}
            coalesce(
                max(case when gamma_draws.signal_name = '{{ signal }}' then sign(gamma_draws.weight) end), 0
            ) as sign_{{ signal }},
            coalesce(max(case when gamma_draws.signal_name = '{{ signal }}' then gamma_draws.gamma end), 0)
                as g_{{ signal }},
        {%- endfor %}
        max(weighted_signals.total_weight) as total_weight,
        {% for signal in signals -%}
            coalesce(max(case when gamma_draws.signal_name = '{{ signal }}' then gamma_draws.gamma end), 0)
            {%- if not loop.last %} + {% endif %}
        {%- endfor %} as gamma_total

    from gamma_draws
    inner join weighted_signals
        on
            gamma_draws.signal_name = weighted_signals.signal_name
            and gamma_draws.weight = weighted_signals.weight
    group by gamma_draws.draw

),

dirichlet as (

    select
        'weight draw ' || draw as scenario,
        'dirichlet' as scenario_kind,
        cast(null as string) as left_out_signal,
        draw,
        {%- for signal in signals %}
            sign_{{ signal }} * g_{{ signal }} * total_weight / nullif(gamma_total, 0) as w_{{ signal }}
            {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from drawn

),

scenarios as (

    select * from leave_one_out
    union all
    select * from dirichlet

),

numbered_scenarios as (

    select
        *,
        row_number() over (order by scenario_kind desc, scenario asc) as scenario_number

    from scenarios

),

-- only the columns the scenarios need: the marts' long texts stay out of the big cross join
papers as (

    select
        venue,
        category,
        paper_id,
        category_size,
        category_rank,
        rating_mean,
        {%- for signal in signals %}
            z_{{ signal }},
        {%- endfor %}
        dense_rank() over (order by venue, category) as category_number,
        row_number() over (order by paper_id) as paper_number

    from rankings

),

scored as (

    select
        papers.category_number,
        papers.paper_number,
        papers.category_size,
        papers.category_rank,
        papers.rating_mean,
        numbered_scenarios.scenario_number,
        {{ scenario_composite }} as scenario_composite

    from papers
    cross join numbered_scenarios

),

-- In a category larger than weight_tau_max_papers only the papers that can reach the top-N
-- are ranked: a paper whose composite is below every point top-N paper's composite in a
-- scenario has N papers above it there. All kept papers rank above all dropped ones, so
-- their ranks are exact; a dropped paper has no row for that scenario.
-- (from the point top-N papers only, so that `scored`, papers x scenarios, is read once and
-- streams instead of being held in memory)
top_n_floors as (

    select
        papers.category_number,
        numbered_scenarios.scenario_number,
        min(round({{ scenario_composite }}, 12)) as top_n_floor

    from papers
    cross join numbered_scenarios
    where papers.category_rank <= {{ var('top_n') }}
    group by papers.category_number, numbered_scenarios.scenario_number

),

candidates as (

    select scored.*
    from scored
    inner join top_n_floors
        on
            scored.category_number = top_n_floors.category_number
            and scored.scenario_number = top_n_floors.scenario_number
    where
        scored.category_size <= {{ settings.weight_tau_max_papers }}
        or scored.category_rank <= {{ var('top_n') }}
        or round(scored.scenario_composite, 12) >= top_n_floors.top_n_floor

),

ranked as (

    select
        category_number,
        paper_number,
        category_rank,
        category_size,
        scenario_number,
        scenario_composite,
        row_number() over (
            partition by category_number, scenario_number
            order by {{ ranking_order('scenario_composite', paper_id='paper_number') }}
        ) as scenario_rank

    from candidates

),

final as (

    select
        papers.venue,
        papers.category,
        papers.paper_id,
        ranked.category_rank,
        ranked.category_size,
        numbered_scenarios.scenario,
        numbered_scenarios.scenario_kind,
        numbered_scenarios.left_out_signal,
        numbered_scenarios.draw,
        ranked.scenario_composite,
        ranked.scenario_rank

    from ranked
    inner join papers
        on ranked.paper_number = papers.paper_number
    inner join numbered_scenarios
        on ranked.scenario_number = numbered_scenarios.scenario_number

)

select * from final
