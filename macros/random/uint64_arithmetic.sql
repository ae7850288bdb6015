{#-
    Unsigned 64-bit arithmetic, for the random streams of macros/random/splitmix64.sql. DuckDB has
    UBIGINT; Spark has no unsigned type, so there a value is the BIGINT with the same 64 bits
    (two's complement): xor and logical shifts are the same bit operations, and products and
    remainders go through decimal(38, 0), which holds any product of two signed 64-bit values,
    so every draw is the same on both engines, bit for bit. In DuckDB, UBIGINT products overflow
    with an error, so they run in UHUGEINT and are masked back to 64 bits (a `%` there would be
    100x slower), and `%` always takes two UBIGINTs (UBIGINT % BIGINT widens to 128 bits).
-#}

{#- `value` (a whole number from 0 to 2^63 - 1, or a column of them) as an unsigned 64-bit value. -#}
{% macro uint64(value) -%}
    {{ return(adapter.dispatch('uint64', 'paperrank')(value)) }}
{%- endmacro %}

{% macro default__uint64(value) -%}
    cast({{ value }} as ubigint)
{%- endmacro %}

{% macro spark__uint64(value) -%}
    cast({{ value }} as bigint)
{%- endmacro %}

{#- The key of a text: the first 8 bytes of its md5 digest read little-endian, an unsigned
    64-bit value (DuckDB's md5_number is the whole digest read that way). -#}
{% macro md5_key64(text) -%}
    {{ return(adapter.dispatch('md5_key64', 'paperrank')(text)) }}
{%- endmacro %}

{% macro default__md5_key64(text) -%}
    (md5_number({{ text }}) & 18446744073709551615::uhugeint)::ubigint
{%- endmacro %}

{#- the 16 hex digits, bytes reversed, read as a signed 64-bit number (conv to base -10) -#}
{% macro spark__md5_key64(text) -%}
    {%- set digest = 'md5(cast(' ~ text ~ ' as string))' -%}
    {%- set pairs = [] -%}
    {%- for byte in range(7, -1, -1) -%}
        {%- do pairs.append('substr(' ~ digest ~ ', ' ~ (2 * byte + 1) ~ ', 2)') -%}
    {%- endfor -%}
    cast(conv(concat({{ pairs | join(', ') }}), 16, -10) as bigint)
{%- endmacro %}

{#- (a * b + c) mod 2^64 for unsigned 64-bit a, b, c. -#}
{% macro mul_add64(a, b, c='0') -%}
    {{ return(adapter.dispatch('mul_add64', 'paperrank')(a, b, c)) }}
{%- endmacro %}

{% macro default__mul_add64(a, b, c) -%}
    (({{ a }})::uhugeint * ({{ b }})::uhugeint + ({{ c }})::uhugeint
        & 18446744073709551615::uhugeint)::ubigint
{%- endmacro %}

{#- Signed 64-bit operands: the exact product fits decimal(38, 0); the result, taken mod 2^64,
    is shifted into the signed range. Constants above 2^63 - 1 are written as their signed form. -#}
{% macro spark__mul_add64(a, b, c) -%}
    {%- set operands = [] -%}
    {%- for operand in [a, b, c] -%}
        {%- set text = operand | string | trim -%}
        {%- if text.isdigit() and text | int > 9223372036854775807 -%}
            {%- set text = (text | int - 18446744073709551616) | string -%}
        {%- endif -%}
        {%- do operands.append('cast(' ~ text ~ ' as decimal(38, 0))') -%}
    {%- endfor -%}
    cast(pmod({{ operands[0] }} * {{ operands[1] }} + {{ operands[2] }} + 9223372036854775808,
        18446744073709551616) - 9223372036854775808 as bigint)
{%- endmacro %}

{#- x >> bits, a logical shift of an unsigned 64-bit x. -#}
{% macro shift_right64(x, bits) -%}
    {{ return(adapter.dispatch('shift_right64', 'paperrank')(x, bits)) }}
{%- endmacro %}

{% macro default__shift_right64(x, bits) -%}
    {{ x }} >> {{ bits }}
{%- endmacro %}

{% macro spark__shift_right64(x, bits) -%}
    shiftrightunsigned({{ x }}, {{ bits }})
{%- endmacro %}

{#- a xor b for unsigned 64-bit a and b. -#}
{% macro xor64(a, b) -%}
    {{ return(adapter.dispatch('xor64', 'paperrank')(a, b)) }}
{%- endmacro %}

{% macro default__xor64(a, b) -%}
    xor({{ a }}, {{ b }})
{%- endmacro %}

{% macro spark__xor64(a, b) -%}
    (({{ a }}) ^ ({{ b }}))
{%- endmacro %}

{#- x mod n for an unsigned 64-bit x and a positive count n. -#}
{% macro mod64(x, n) -%}
    {{ return(adapter.dispatch('mod64', 'paperrank')(x, n)) }}
{%- endmacro %}

{% macro default__mod64(x, n) -%}
    ({{ x }} % ({{ n }})::ubigint)
{%- endmacro %}

{#- pmod by 2^64 turns the signed form back into the unsigned value -#}
{% macro spark__mod64(x, n) -%}
    cast(pmod(cast({{ x }} as decimal(20, 0)), 18446744073709551616) % ({{ n }}) as bigint)
{%- endmacro %}
