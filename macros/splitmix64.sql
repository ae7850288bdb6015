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
    not used: it changes between releases. The macros below are dispatched so that another engine
    can supply its own 64-bit arithmetic; `default__` is the DuckDB form, where UBIGINT products
    overflow with an error, so they run in UHUGEINT and are masked back to 64 bits (a `%` there
    would be 100x slower), and `%` always takes two UBIGINTs (UBIGINT % BIGINT widens to 128 bits).
    (`adapter is defined` is false only under sqlfluff's jinja templater, which `make lint` uses.)
-#}

{% macro splitmix64_gamma() -%}
    11400714819323198485
{%- endmacro %}

{#- The low 64 bits of md5_number(text) (= the first 8 digest bytes, little-endian), a UBIGINT. -#}
{% macro md5_key64(text) -%}
    {{ return((adapter.dispatch('md5_key64') if adapter is defined else default__md5_key64)(text)) }}
{%- endmacro %}

{% macro default__md5_key64(text) -%}
    (md5_number({{ text }}) & 18446744073709551615::uhugeint)::ubigint
{%- endmacro %}

{#- (a * b + c) mod 2^64 for unsigned 64-bit a, b, c. -#}
{% macro mul_add64(a, b, c='0') -%}
    {{ return((adapter.dispatch('mul_add64') if adapter is defined else default__mul_add64)(a, b, c)) }}
{%- endmacro %}

{% macro default__mul_add64(a, b, c) -%}
    (({{ a }})::uhugeint * ({{ b }})::uhugeint + ({{ c }})::uhugeint
        & 18446744073709551615::uhugeint)::ubigint
{%- endmacro %}

{#- x xor (x >> bits) for an unsigned 64-bit x (a column name: it is read twice). -#}
{% macro xorshift64(x, bits) -%}
    {{ return((adapter.dispatch('xorshift64') if adapter is defined else default__xorshift64)(x, bits)) }}
{%- endmacro %}

{% macro default__xorshift64(x, bits) -%}
    xor({{ x }}, {{ x }} >> {{ bits }})
{%- endmacro %}

{% macro xor64(a, b) -%}
    {{ return((adapter.dispatch('xor64') if adapter is defined else default__xor64)(a, b)) }}
{%- endmacro %}

{% macro default__xor64(a, b) -%}
    xor({{ a }}, {{ b }})
{%- endmacro %}

{#- x mod n for an unsigned 64-bit x and a positive count n, both as UBIGINT. -#}
{% macro mod64(x, n) -%}
    {{ return((adapter.dispatch('mod64') if adapter is defined else default__mod64)(x, n)) }}
{%- endmacro %}

{% macro default__mod64(x, n) -%}
    ({{ x }} % ({{ n }})::ubigint)
{%- endmacro %}

{#- A uniform in (0, 1) from an unsigned 64-bit x: its top 53 bits, centred, times 2^-53. -#}
{% macro unit_interval64(x) -%}
    (cast({{ x }} >> 11 as double) + 0.5) / 9007199254740992.0
{%- endmacro %}

{#-
    SplitMix64 as a chain of CTEs (one stage per CTE keeps DuckDB from expanding the nested
    expression 16-fold). `source` is a CTE with the columns `columns` plus `stream_state`
    (state(seed, k), UBIGINT) and `stream_position` (c); the last CTE, named `name`, has
    `columns` plus `random_bits`, the draw.
-#}
{% macro splitmix64_ctes(name, source, columns) -%}
    {{ name }}_position as (

    select
        {{ columns | join(', ') }},
        {{ mul_add64('stream_position', splitmix64_gamma(), 'stream_state') }} as z

    from {{ source }}

),

{{ name }}_mixed_1 as (

    select
        {{ columns | join(', ') }},
        {{ mul_add64(xorshift64('z', 30), '13787848793156543929') }} as z

    from {{ name }}_position

),

{{ name }}_mixed_2 as (

    select
        {{ columns | join(', ') }},
        {{ mul_add64(xorshift64('z', 27), '10723151780598845931') }} as z

    from {{ name }}_mixed_1

),

{{ name }} as (

    select
        {{ columns | join(', ') }},
        {{ xorshift64('z', 31) }} as random_bits

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
        cast({{ seed }} as ubigint) as stream_state,
        0 as stream_position

),

{{ splitmix64_ctes(name, name ~ '_seed', ['stream_position']) }}
{%- endmacro %}
