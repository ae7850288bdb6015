-- noqa: disable=LT02
-- (Jinja loops over buckets, kinds, slots and steps: sqlfluff cannot lay out the generated lines)
{#-
    The scaled path's parametric bootstrap draws, as a chain of CTEs ending in `name`: one row
    per (group_key, draw b = 1..B) with what the critical values of a large category need of
    its n standard normals u (one per paper), without drawing n of them:

    - the K highest u (candidate slots 1..K, highest first) and the K lowest (slots K+1..2K,
      lowest first), each with the paper it belongs to (candidate_item_s, a
      category_item_number) and its value (candidate_u_s);
    - outside_max, the largest |u| of the n - 2K others;
    - u_self, one more standard normal, independent of those: the own draw of the paper whose
      marginal statistic is computed (the others are then n papers, one more than there are:
      a maximum over more partners is never smaller in distribution, so this is conservative).

    Why this is the same bootstrap: the n draws are independent and identically distributed, so
    their order statistics can be drawn directly and the papers they belong to are a uniformly
    random ordered choice of 2K distinct papers, independent of the values. With uniform tail
    probabilities q (of the highest) and p (of the lowest), and E(v, m) = 1 - v^(1/m), the
    largest of m uniforms' distance to 1 for a uniform v:

        q_1 = E(v_1, n),  q_j = q_(j-1) + (1 - q_(j-1)) E(v_j, n - j + 1)         j <= K
        T = 1 - q_K  (the n - K others are uniform on [0, T])
        p_1 = T E(w_1, n - K),  p_j = p_(j-1) + (T - p_(j-1)) E(w_j, n - K - j + 1)
        q_rest = q_K + (T - p_K) E(v_(K+1), n - 2K)         the largest of the n - 2K others
        p_rest = p_K + (1 - q_rest - p_K) E(w_(K+1), n - 2K - 1)       and their smallest
        u = -Phi^-1(q_j) (highest), Phi^-1(p_j) (lowest),
        outside_max = max(|Phi^-1(q_rest)|, |Phi^-1(p_rest)|)

    (Phi^-1: macros/statistics/normal_quantile.sql). The papers: Floyd's algorithm draws a
    uniform set of 2K of 1..n (step s: t uniform on 1..j with j = n - 2K + s; t, or j when t is
    already taken), and a random key per pick orders the set into the slots. E is computed as
    -expm1(ln(v) / m), by its series where ln(v) / m is tiny, so probabilities near 1e-9 keep
    their digits. Needs n >= 2K + 2 (int_rank_set_categories sends smaller categories to the
    exact path).

    The uniforms are a documented function of (seed, group, b), as every draw of the project:
    `state = key('rank-sets-scaled/' || group_stream_key) xor mix64(seed)`, the uniform at
    position c = (b - 1) P + p is ((mix64(state + c gamma) >> 11) + 0.5) / 2^53 with
    P = 6K + 4 positions per draw: v_1..v_K, w_1..w_K, v_(K+1), w_(K+1), Floyd's 2K, the 2K
    keys, and u_self's two Box-Muller halves.

    `groups` has group_key, group_stream_key (text) and group_size (n).
-#}
{% macro rank_set_scaled_draw_ctes(name, groups, settings) -%}
    {%- set k = settings.candidates -%}
    {%- set slots = 2 * k -%}
    {%- set positions = 6 * k + 4 -%}
    {{ mixed_seed_ctes(name ~ '_seed_mixed', settings.seed) }},

{{ name }}_streams as (

    select
        groups.group_key,
        groups.group_size,
        {{ xor64(md5_key64("concat('rank-sets-scaled/', groups.group_stream_key)"),
            name ~ '_seed_mixed.random_bits') }} as stream_state

    from {{ groups }} as groups
    cross join {{ name }}_seed_mixed

),

{{ name }}_slots as (

    select
        streams.group_key,
        streams.group_size,
        draws.draw,
        positions.position,
        streams.stream_state,
        (draws.draw - 1) * {{ positions }} + positions.position as stream_position

    from {{ name }}_streams as streams
    cross join {{ integer_series('draw', settings.draws) }} as draws
    cross join {{ integer_series('position', positions) }} as positions

),

{{ splitmix64_ctes(name ~ '_bits', name ~ '_slots', ['group_key', 'group_size', 'draw', 'position']) }},

{{ name }}_uniforms as (

    select
        group_key,
        group_size,
        draw,
    {%- for position in range(1, positions + 1) %}
            max(case when position = {{ position }} then {{ unit_interval64('random_bits') }} end)
                as uniform_{{ position }}{{ ',' if not loop.last }}
    {%- endfor %}

    from {{ name }}_bits
    group by group_key, group_size, draw

),

-- the highest K: q_j from q_(j-1)
{{ name }}_high_1 as (

    select
        *,
        {{ _uniform_max_tail('uniform_1', 'group_size') }} as high_tail_1

    from {{ name }}_uniforms

),
{%- for j in range(2, k + 1) %}

    {{ name }}_high_{{ j }} as (

        select
            *,
            high_tail_{{ j - 1 }} + (1.0 - high_tail_{{ j - 1 }})
            * {{ _uniform_max_tail('uniform_' ~ j, 'group_size - ' ~ (j - 1)) }} as high_tail_{{ j }}

        from {{ name }}_high_{{ j - 1 }}

    ),
{%- endfor %}

-- the lowest K of the n - K others, uniform on [0, 1 - q_K]
{{ name }}_low_1 as (

    select
        *,
        (1.0 - high_tail_{{ k }}) * {{ _uniform_max_tail('uniform_' ~ (k + 1), 'group_size - ' ~ k) }}
            as low_tail_1

    from {{ name }}_high_{{ k }}

),
{%- for j in range(2, k + 1) %}

    {{ name }}_low_{{ j }} as (

        select
            *,
            low_tail_{{ j - 1 }} + (1.0 - high_tail_{{ k }} - low_tail_{{ j - 1 }})
            * {{ _uniform_max_tail('uniform_' ~ (k + j), 'group_size - ' ~ (k + j - 1)) }}
                as low_tail_{{ j }}

        from {{ name }}_low_{{ j - 1 }}

    ),
{%- endfor %}

-- the largest and the smallest of the n - 2K others
{{ name }}_rest_high as (

    select
        *,
        high_tail_{{ k }} + (1.0 - high_tail_{{ k }} - low_tail_{{ k }})
        * {{ _uniform_max_tail('uniform_' ~ (2 * k + 1), 'group_size - ' ~ (2 * k)) }} as rest_high_tail

    from {{ name }}_low_{{ k }}

),

{{ name }}_rest as (

    select
        *,
        low_tail_{{ k }} + (1.0 - rest_high_tail - low_tail_{{ k }})
        * {{ _uniform_max_tail('uniform_' ~ (2 * k + 2), 'group_size - ' ~ (2 * k + 1)) }} as rest_low_tail

    from {{ name }}_rest_high

),

-- Floyd's algorithm: 2K distinct papers of 1..n, one pick per step
{{ name }}_pick_1 as (

    select
        *,
        {{ _floyd_step('uniform_' ~ (2 * k + 3), 'group_size - ' ~ (slots - 1), []) }} as pick_1

    from {{ name }}_rest

),
{%- for s in range(2, slots + 1) %}

    {{ name }}_pick_{{ s }} as (

        select
            *,
            {{ _floyd_step('uniform_' ~ (2 * k + 2 + s), 'group_size - ' ~ (slots - s),
                range(1, s) | list) }} as pick_{{ s }}

        from {{ name }}_pick_{{ s - 1 }}

    ),
{%- endfor %}

-- each pick's slot: its place among the picks' random keys (ties by pick order)
{{ name }}_placed as (

    select
        *,
    {%- for s in range(1, slots + 1) %}
            1
        {%- for other in range(1, slots + 1) if other != s %}
                + case when uniform_{{ 4 * k + 2 + other }} < uniform_{{ 4 * k + 2 + s }}
                    {%- if other < s %} or uniform_{{ 4 * k + 2 + other }} = uniform_{{ 4 * k + 2 + s }}{% endif %}
                    then 1 else 0 end
        {%- endfor %} as pick_slot_{{ s }}{{ ',' if not loop.last }}
    {%- endfor %}

    from {{ name }}_pick_{{ slots }}

),

{{ name }} as (

    select
        group_key,
        draw,
        {{ standard_normal('uniform_' ~ (6 * k + 3), 'uniform_' ~ (6 * k + 4)) }} as u_self,
        greatest(
            abs({{ normal_quantile('rest_high_tail') }}), abs({{ normal_quantile('rest_low_tail') }})
        ) as outside_max,
    {%- for slot in range(1, slots + 1) %}
            case
            {%- for s in range(1, slots + 1) %}
                when pick_slot_{{ s }} = {{ slot }} then pick_{{ s }}
            {%- endfor %}
            end as candidate_item_{{ slot }},
        {%- if slot <= k %}
                -{{ normal_quantile('high_tail_' ~ slot) }} as candidate_u_{{ slot }}
        {%- else %}
                {{ normal_quantile('low_tail_' ~ (slot - k)) }} as candidate_u_{{ slot }}
        {%- endif %}{{ ',' if not loop.last }}
    {%- endfor %}

    from {{ name }}_placed

)
{%- endmacro %}

{#- E(v, m) = 1 - v^(1/m): how far the largest of m uniforms lies below 1, for a uniform v in
    (0, 1); as -expm1(ln(v) / m), by its series when that is tiny (engines lack expm1). -#}
{% macro _uniform_max_tail(v, m) -%}
    {%- set y = '(ln(' ~ v ~ ') / (' ~ m ~ '))' -%}
    (case
        when {{ y }} > -1e-5 then -{{ y }} * (1.0 + {{ y }} * (0.5 + {{ y }} / 6.0))
        else 1.0 - exp({{ y }})
    end)
{%- endmacro %}

{#- One step of Floyd's algorithm: t uniform on 1..j from the uniform v; t unless an earlier
    pick (columns pick_<s> for s in `earlier`) took it, then j. -#}
{% macro _floyd_step(v, j, earlier) -%}
    {%- set t = 'least(' ~ j ~ ', 1 + cast(floor(' ~ v ~ ' * (' ~ j ~ ')) as bigint))' -%}
    {%- if earlier | length == 0 -%}
        {{ t }}
    {%- else -%}
        case
            when {{ t }} in ({% for s in earlier %}pick_{{ s }}{{ ', ' if not loop.last }}{% endfor %})
                then {{ j }}
            else {{ t }}
        end
    {%- endif -%}
{%- endmacro %}
