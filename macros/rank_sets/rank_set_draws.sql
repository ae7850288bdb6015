{#-
    The parametric bootstrap's standard normal draws, as a chain of CTEs ending in `name`:
    one row per (group_key, item_number, draw b = 1..B) with `u`, a standard normal; the draw of
    the estimate is then estimate + se * u (only se * u is used: the critical values are of
    the centred, scaled differences).

    `estimates` is a relation or CTE with group_key, item_number and item_key (text). The
    numbers are a documented function of (seed, item_key, b), as the bootstrap's are
    (macros/random/splitmix64.sql), so the numpy implementation in the tests draws the same ones:

        state  = key('rank-sets/' || item_key) xor mix64(seed)
        bits_h = mix64(state + (2 b - 2 + h) * 0x9e3779b97f4a7c15)       h = 1, 2
        u_h    = ((bits_h >> 11) + 0.5) / 2^53
        u      = sqrt(-2 ln u_1) cos(2 pi u_2)                            (Box-Muller)

    The 'rank-sets/' prefix keeps these streams apart from the review bootstrap's, which key
    the same papers with the same seed.
-#}
{% macro rank_set_draw_ctes(name, estimates, settings) -%}
    {{ mixed_seed_ctes(name ~ '_seed_mixed', settings.seed) }},

{{ name }}_streams as (

    select
        items.group_key,
        items.item_number,
        {{ xor64(md5_key64("concat('rank-sets/', items.item_key)"), name ~ '_seed_mixed.random_bits') }}
            as stream_state

    from {{ estimates }} as items
    cross join {{ name }}_seed_mixed

),

{{ name }}_slots as (

    select
        streams.group_key,
        streams.item_number,
        draws.draw,
        streams.stream_state,
        2 * draws.draw - 1 as stream_position_1,
        2 * draws.draw as stream_position_2

    from {{ name }}_streams as streams
    cross join {{ integer_series('draw', settings.draws) }} as draws

),

-- both halves of a draw in one row (positions 2b - 2 + h, h = 1, 2)
{{ splitmix64_ctes(name ~ '_bits', name ~ '_slots', ['group_key', 'item_number', 'draw'],
    {'random_bits_1': 'stream_position_1', 'random_bits_2': 'stream_position_2'}) }},

{{ name }} as (

    select
        group_key,
        item_number,
        draw,
        {{ standard_normal(unit_interval64('random_bits_1'), unit_interval64('random_bits_2')) }} as u

    from {{ name }}_bits

)
{%- endmacro %}
