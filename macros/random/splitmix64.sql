{#-
    Deterministic, stateless random numbers for the rank-uncertainty models.

    Every draw is a documented function of its coordinates, so any implementation (the tests
    have one in numpy) reproduces it bit for bit, whatever the thread count or row order:

        key(text)        = the first 8 bytes of md5(text), read little-endian (an unsigned 64-bit int)
        mix64(x)         = the SplitMix64 finaliser:
                           x ^= x >> 30; x *= 0xbf58476d1ce4e5b9; x ^= x >> 27;
                           x *= 0x94d049bb133111eb; x ^= x >> 31            (all mod 2^64)
        state(seed, k)   = key(k) xor mix64(seed)
        draw(seed, k, c) = mix64(state(seed, k) + c * 0x9e3779b97f4a7c15)  (mod 2^64)

    draw is the c-th output of a SplitMix64 stream seeded with state(seed, k). DuckDB's hash() is
    not used: it changes between releases. The 64-bit operations (md5_key64, mul_add64, xor64,
    shift_right64, mod64, uint64) are engine-specific dispatch macros in macros/random/uint64_arithmetic.sql.
-#}

{% macro splitmix64_gamma() -%}
    11400714819323198485
{%- endmacro %}

{#- x xor (x >> bits) for an unsigned 64-bit x (a column name: it is read twice). -#}
{% macro xorshift64(x, bits) -%}
    {{ xor64(x, shift_right64(x, bits)) }}
{%- endmacro %}

{#- A uniform in (0, 1) from an unsigned 64-bit x: its top 53 bits, centred, times 2^-53. -#}
{% macro unit_interval64(x) -%}
    (cast({{ shift_right64(x, 11) }} as double) + 0.5) / 9007199254740992.0
{%- endmacro %}

{#-
    SplitMix64 as a chain of CTEs (one stage per CTE keeps DuckDB from expanding the nested
    expression 16-fold). `source` is a CTE with the columns `columns` plus `stream_state`
    (state(seed, k), UBIGINT) and `stream_position` (c); the last CTE, named `name`, has
    `columns` plus `random_bits`, the draw. `outputs` (output column -> position column of
    `source`) draws several positions of the same stream in one row, where a row needs more
    than one draw: cheaper than one row per draw regrouped afterwards.
-#}
{% macro splitmix64_ctes(name, source, columns, outputs={'random_bits': 'stream_position'}) -%}
    {{ name }}_position as (

    select
        {{ columns | join(', ') }},
    {%- for output, position in outputs.items() %}
        {{ mul_add64(position, splitmix64_gamma(), 'stream_state') }} as {{ output }}
        {%- if not loop.last %},{% endif %}
    {%- endfor %}

    from {{ source }}

),

{{ name }}_mixed_1 as (

    select
        {{ columns | join(', ') }},
    {%- for output in outputs %}
        {{ mul_add64(xorshift64(output, 30), '13787848793156543929') }} as {{ output }}
        {%- if not loop.last %},{% endif %}
    {%- endfor %}

    from {{ name }}_position

),

{{ name }}_mixed_2 as (

    select
        {{ columns | join(', ') }},
    {%- for output in outputs %}
        {{ mul_add64(xorshift64(output, 27), '10723151780598845931') }} as {{ output }}
        {%- if not loop.last %},{% endif %}
    {%- endfor %}

    from {{ name }}_mixed_1

),

{{ name }} as (

    select
        {{ columns | join(', ') }},
    {%- for output in outputs %}
        {{ xorshift64(output, 31) }} as {{ output }}
        {%- if not loop.last %},{% endif %}
    {%- endfor %}

    from {{ name }}_mixed_2

)
{%- endmacro %}

{#-
    mix64(seed) as a one-row CTE chain named `name`, with the column `random_bits`: the
    seed's own stream state, which every per-key stream of a model xors with its key
    (state(seed, k) above). One home for it, so the bootstrap and the weight draws cannot
    derive their streams from the seed in two different ways.
-#}
{% macro mixed_seed_ctes(name, seed) -%}
    {{ name }}_seed as (

    select
        {{ uint64(seed) }} as stream_state,
        0 as stream_position

),

{{ splitmix64_ctes(name, name ~ '_seed', ['stream_position']) }}
{%- endmacro %}
