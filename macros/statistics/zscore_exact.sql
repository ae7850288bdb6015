{#-
    z-scores of `signals` within `partition_by`, with the partition's mean and sample std from
    exact integer sums, as three CTEs (`<name>_moments`, `<name>_spread` with mean_<signal>
    and std_<signal> per partition, and `<name>`). Each value x enters the sums
    as q = floor(x * 2^36), an integer, so the sums are exact in any order and any thread count
    (a floating-point sum is not, and an order-pinned window is ~10x slower at bootstrap scale):

        mean = sum(q) / n / 2^36,  sample var = (n sum(q^2) - sum(q)^2) / (n (n - 1)) / 2^72
        z    = (x - mean) / sqrt(var), and 0 where undefined (one value, zero spread, no value)

    The grid 2^-36 (1.5e-11) moves no z-score by more than about 1e-10; sums are 128-bit
    (sum_int128 and int128 of macros/engine_shims/int128.sql), which holds categories of up to about a million
    papers on scores up to 16.
    `columns` are carried through from `source`.
-#}
{% macro zscore_exact_ctes(name, source, partition_by, columns, signals) -%}
    {{ name }}_moments as (

    select
        {{ partition_by | join(', ') }},
    {%- for signal in signals %}
            count({{ signal }}) as n_{{ signal }},
            {{ sum_int128(fixed_point36(signal)) }} as sum_{{ signal }},
            sum(cast({{ fixed_point36(signal) }} as {{ int128() }}) * {{ fixed_point36(signal) }})
                as sumsq_{{ signal }} {%- if not loop.last %},{% endif %}
    {%- endfor %}

    from {{ source }}
    group by {{ partition_by | join(', ') }}

),

{{ name }}_spread as (

    select
        {{ partition_by | join(', ') }},
    {%- for signal in signals %}
            cast(sum_{{ signal }} as double) / n_{{ signal }} / 68719476736.0 as mean_{{ signal }},
            sqrt(
                cast(
                    n_{{ signal }} * sumsq_{{ signal }}
                    - cast(sum_{{ signal }} as {{ int128() }}) * sum_{{ signal }} as double
                )
                / nullif(n_{{ signal }} * (n_{{ signal }} - 1), 0)
                / 4722366482869645213696.0
            ) as std_{{ signal }} {%- if not loop.last %},{% endif %}
    {%- endfor %}

    from {{ name }}_moments

),

{{ name }} as (

    select
    {%- for column in columns %}
        {{ source }}.{{ column }},
    {%- endfor %}
    {%- for signal in signals %}
            coalesce(
                ({{ source }}.{{ signal }} - spread.mean_{{ signal }}) / nullif(spread.std_{{ signal }}, 0),
                0
            ) as z_{{ signal }} {%- if not loop.last %},{% endif %}
    {%- endfor %}

    from {{ source }}
    inner join {{ name }}_spread as spread
        on
    {%- for column in partition_by %}
        {{ source }}.{{ column }} = spread.{{ column }} {%- if not loop.last %} and{% endif %}
    {%- endfor %}

)
{%- endmacro %}

{#- floor(x * 2^36) as a BIGINT: a score on the fixed-point grid of zscore_exact_ctes. -#}
{% macro fixed_point36(x) -%}
    cast(floor({{ x }} * 68719476736.0) as bigint)
{%- endmacro %}
