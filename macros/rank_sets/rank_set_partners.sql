{#-
    What every draw of the rank-set step-down compares (rank_set_step_down.sql), as a chain of
    CTEs ending in `name`: one row per (item, draw) with its exact differences against the
    draw's candidate partners (d_s = D_ik, t_s = t_ik for slot s) and `outside_bound`, a bound
    on |D_ik| for every other partner k.

    Why: the exact max over every pair is B n^2 per group. Instead each draw's K highest and K
    lowest u of the group (K = `candidates`) are every item's exact partners, and the rest enter
    through a bound: with r = se_i / sqrt(se_i^2 + se_k^2), |D_ik| = |r u_i - sqrt(1 - r^2) u_k|
    <= max over r in [r_lo(i), r_hi(i)] of r |u_i| + sqrt(1 - r^2) m_b, where m_b is the largest
    |u| outside the candidates and [r_lo, r_hi] comes from the group's smallest and largest se.
    Each draw's statistic is the larger of the exact candidates' max and that bound, so it is
    never below the exact max: the critical values can only be higher than the all-pairs ones,
    and the sets keep their coverage. The share of draws where the bound decided is kept
    (`marginal_bound_share`); the tests compare with an all-pairs implementation.
-#}
{% macro rank_set_partner_ctes(name, estimates, draws, settings) -%}
    {%- set slots = 2 * settings.candidates -%}
    {%- set minus_infinite = '-1e308' -%}
    {{ name }}_items as (

    select
        items.group_key,
        items.item_number,
        items.estimate,
        items.se,
        case
            when items.se = 0 then 0.0
            else items.se / sqrt(items.se * items.se + spread.se_max * spread.se_max)
        end as r_low,
        case
            when items.se = 0 then 0.0
            else items.se / sqrt(items.se * items.se + spread.se_min * spread.se_min)
        end as r_high,
        spread.group_size

    from {{ estimates }} as items
    inner join (
        select
            group_key,
            min(se) as se_min,
            max(se) as se_max,
            count(*) as group_size
        from {{ estimates }}
        group by group_key
    ) as spread
        on items.group_key = spread.group_key

),

{{ name }}_ranked as (

    select
        draws.group_key,
        draws.item_number,
        draws.draw,
        draws.u,
        items.se * draws.u as z,
        items.estimate,
        items.se,
        items.r_low,
        items.r_high,
        row_number() over (
            partition by draws.group_key, draws.draw order by draws.u desc, draws.item_number
        ) as rank_high,
        -- one sort: the ranks from below are the ranks from above read backwards
        items.group_size + 1 - row_number() over (
            partition by draws.group_key, draws.draw order by draws.u desc, draws.item_number
        ) as rank_low

    from {{ draws }} as draws
    inner join {{ name }}_items as items
        on
            draws.group_key = items.group_key
            and draws.item_number = items.item_number

),

-- each draw's 2K candidates, one slot each: slot s <= K is the s-th highest u, slot K + s the
-- s-th lowest (a small group's item can fill two slots)
{{ name }}_candidates as (

    select
        group_key,
        draw,
    {%- for slot in range(1, slots + 1) %}
            {%- set test = ('rank_high = ' ~ slot) if slot <= settings.candidates
                else ('rank_low = ' ~ (slot - settings.candidates)) %}
            max(case when {{ test }} then item_number end) as partner_number_{{ slot }},
            max(case when {{ test }} then z end) as partner_z_{{ slot }},
            max(case when {{ test }} then estimate end) as partner_estimate_{{ slot }},
            max(case when {{ test }} then se end) as partner_se_{{ slot }}
        {%- if not loop.last %},{% endif %}
    {%- endfor %}

    from {{ name }}_ranked
    where rank_high <= {{ settings.candidates }} or rank_low <= {{ settings.candidates }}
    group by group_key, draw

),

-- m_b: the largest |u| of the items that are not candidates (none: no bound needed)
{{ name }}_outside as (

    select
        group_key,
        draw,
        max(abs(u)) as outside_max

    from {{ name }}_ranked
    where rank_high > {{ settings.candidates }} and rank_low > {{ settings.candidates }}
    group by group_key, draw

),

-- each item's bound on |D_ik| for every partner k outside the candidates
{{ name }}_bounded as (

    select
        ranked.group_key,
        ranked.item_number,
        ranked.draw,
        ranked.z,
        ranked.estimate,
        ranked.se,
        outside.outside_max,
        case
            when outside.outside_max is null then null
            when abs(ranked.u) + outside.outside_max = 0 then 0.0
            else least(ranked.r_high, greatest(ranked.r_low,
                abs(ranked.u) / sqrt(ranked.u * ranked.u + outside.outside_max * outside.outside_max)))
        end as r_best,
        abs(ranked.u) as u_abs

    from {{ name }}_ranked as ranked
    left join {{ name }}_outside as outside
        on
            ranked.group_key = outside.group_key
            and ranked.draw = outside.draw

),

{{ name }}_rows as (

    select
        group_key,
        item_number,
        draw,
        z,
        estimate,
        se,
        case
            when outside_max is null then {{ minus_infinite }}
            else r_best * u_abs + sqrt(greatest(1.0 - r_best * r_best, 0.0)) * outside_max
        end as outside_bound

    from {{ name }}_bounded

),

-- every item against each candidate slot of its draw: D_ik (d_s) and t_ik (t_s); null where
-- the slot is the item itself or empty
{{ name }} as (

    select
        rows.group_key,
        rows.item_number,
        rows.draw,
        rows.outside_bound,
    {%- for slot in range(1, slots + 1) %}
            case when candidates.partner_number_{{ slot }} != rows.item_number then
                {{ rank_set_scaled_difference('rows.z', 'candidates.partner_z_' ~ slot, 'rows.se',
                    'candidates.partner_se_' ~ slot, '0.0') }}
            end as d_{{ slot }},
            case when candidates.partner_number_{{ slot }} != rows.item_number then
                {{ rank_set_scaled_difference('rows.estimate', 'candidates.partner_estimate_' ~ slot, 'rows.se',
                    'candidates.partner_se_' ~ slot, '1e300') }}
            end as t_{{ slot }} {%- if not loop.last %},{% endif %}
    {%- endfor %}

    from {{ name }}_rows as rows
    inner join {{ name }}_candidates as candidates
        on
            rows.group_key = candidates.group_key
            and rows.draw = candidates.draw

)
{%- endmacro %}
