{#-
    The ranking under other weight sets: each leave-one-signal-out set (the other weights
    scaled back to the same total |weight|) and `weight_draws` sets drawn around the official
    ones, |w| ~ total * Dirichlet(concentration * |w| / total) with the signs kept. Gamma
    variates: Wilson-Hilferty's cube of a normal at shape a + 1, times u^(1/a) (Marsaglia's
    boost, exact in distribution for the boost and good for any shape a > 0); the normal by
    Box-Muller; uniforms from the SplitMix64 draws (macros/splitmix64.sql) keyed by
    'weight draw <signal>' at positions 4 * draw + 1, 2, 3.
    The z-scores are the official ones: only the weights change.
-#}
{{ config(materialized='table') }}
{%- set settings = rank_uncertainty_settings() -%}
{%- set signals = ranking_signals() -%}

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
            '{{ signal }}' as signal,
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

seed as (

    select
        cast({{ settings.seed }} as ubigint) as stream_state,
        0 as stream_position

),

{{ splitmix64_ctes('seed_mixed', 'seed', ['stream_position']) }},

draws as (

    select * from {{ integer_series('draw', settings.weight_draws) }}

),

uniform_slots as (

    select
        weighted_signals.signal,
        weighted_signals.weight,
        weighted_signals.total_weight,
        draws.draw,
        parts.part,
        {{ xor64(md5_key64("'weight draw ' || weighted_signals.signal"), 'seed_mixed.random_bits') }}
            as stream_state,
        4 * draws.draw + parts.part as stream_position

    from weighted_signals
    cross join draws
    cross join {{ integer_series('part', 3) }} as parts
    cross join seed_mixed

),

{{ splitmix64_ctes('uniform_bits', 'uniform_slots', ['signal', 'weight', 'total_weight', 'draw', 'part']) }},

uniforms as (

    select
        signal,
        weight,
        draw,
        {{ settings.weight_concentration }} * abs(weight) / total_weight as shape,
        max(case when part = 1 then {{ unit_interval64('random_bits') }} end) as u1,
        max(case when part = 2 then {{ unit_interval64('random_bits') }} end) as u2,
        max(case when part = 3 then {{ unit_interval64('random_bits') }} end) as u3

    from uniform_bits
    group by signal, weight, total_weight, draw

),

gamma_draws as (

    select
        signal,
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
        draw,
        {%- for signal in signals %}
            coalesce(max(case when signal = '{{ signal }}' then sign(weight) end), 0) as sign_{{ signal }},
            coalesce(max(case when signal = '{{ signal }}' then gamma end), 0) as g_{{ signal }},
        {%- endfor %}
        max(total_weight) as total_weight

    from gamma_draws
    inner join weighted_signals using (signal, weight)
    group by draw

),

dirichlet as (

    select
        'weight draw ' || draw as scenario,
        'dirichlet' as scenario_kind,
        cast(null as varchar) as left_out_signal,
        draw,
        {%- for signal in signals %}
            sign_{{ signal }} * g_{{ signal }} * total_weight / nullif(
                {%- for other in signals %}g_{{ other }}{% if not loop.last %} + {% endif %}{% endfor -%}
            , 0) as w_{{ signal }} {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from drawn

),

scenarios as (

    select * from leave_one_out
    union all
    select * from dirichlet

),

scored as (

    select
        rankings.venue,
        rankings.category,
        rankings.paper_id,
        rankings.rating_mean,
        rankings.category_rank,
        scenarios.scenario,
        scenarios.scenario_kind,
        scenarios.left_out_signal,
        scenarios.draw,
        {% for signal in signals -%}
            scenarios.w_{{ signal }} * rankings.z_{{ signal }} {%- if not loop.last %} + {% endif %}
        {%- endfor %} as scenario_composite

    from rankings
    cross join scenarios

),

final as (

    select
        venue,
        category,
        paper_id,
        category_rank,
        scenario,
        scenario_kind,
        left_out_signal,
        draw,
        scenario_composite,
        row_number() over (
            partition by venue, category, scenario
            order by {{ ranking_order('scenario_composite') }}
        ) as scenario_rank

    from scored

)

select * from final
