{#-
    The weight sensitivity's random draws: for each Dirichlet weight draw (1..`weight_draws`)
    and each weighted signal, a Gamma variate of shape concentration * |w| / total |w|. Gamma
    variates: Wilson-Hilferty's cube of a normal at shape a + 1, times u^(1/a) (Marsaglia's
    boost, exact in distribution for the boost and good for any shape a > 0); the normal by
    Box-Muller; uniforms from the SplitMix64 draws (macros/random/splitmix64.sql) keyed by
    'weight draw <signal>' at positions 4 * draw + 1, 2, 3. int_weight_scenarios turns them
    into weights.
-#}
{%- set settings = rank_uncertainty_settings() -%}
{%- set signals = ranking_signals() %}

with

weight_set as (

    select * from {{ ref('int_weight_set') }}

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

final as (

    select
        signal_name,
        draw,
        (shape + 1) * power(greatest(
            1 - 1 / (9 * (shape + 1))
            + sqrt(-2 * ln(u1)) * cos(2 * pi() * u2) / sqrt(9 * (shape + 1)),
            0
        ), 3) * power(u3, 1 / shape) as gamma

    from uniforms

)

select * from final
