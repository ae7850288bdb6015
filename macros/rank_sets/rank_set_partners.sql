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
    {#- the sort key first (u, then the item number, negated so that the smaller ranks higher) -#}
    {%- set fields = {'u': 'u', 'item_order': '-item_number', 'z': 'z', 'estimate': 'estimate',
        'se': 'se'} -%}
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

{{ name }}_keyed as (

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
        items.group_size

    from {{ draws }} as draws
    inner join {{ name }}_items as items
        on
            draws.group_key = items.group_key
            and draws.item_number = items.item_number

),

-- each draw's K + 1 highest and K + 1 lowest u with their items, by a top-n aggregate (no sort
-- of the draw): ordered by u, ties by the item number (the smaller ranks higher)
{{ name }}_extremes as (

    select
        group_key,
        draw,
        max(group_size) as group_size,
        {{ top_n_structs(fields, settings.candidates + 1, true) }} as highest,
        {{ top_n_structs(fields, settings.candidates + 1, false) }} as lowest

    from {{ name }}_keyed
    group by group_key, draw

),

-- each draw's 2K candidates, one slot each: slot s <= K is the s-th highest u, slot K + s the
-- s-th lowest (a small group's item can fill two slots); m_b, the largest |u| of the items that
-- are neither (those between the (K + 1)-th highest and lowest; none: no bound needed)
{{ name }}_candidates as (

    select
        group_key,
        draw,
    {%- for slot in range(1, slots + 1) %}
            {%- set element = list_element('highest', slot) if slot <= settings.candidates
                else list_element('lowest', slot - settings.candidates) %}
            -{{ element }}.item_order as partner_number_{{ slot }},
            {{ element }}.z as partner_z_{{ slot }},
            {{ element }}.estimate as partner_estimate_{{ slot }},
            {{ element }}.se as partner_se_{{ slot }},
    {%- endfor %}
        case
            when group_size > {{ slots }} then greatest(
                abs({{ list_element('highest', settings.candidates + 1) }}.u),
                abs({{ list_element('lowest', settings.candidates + 1) }}.u)
            )
        end as outside_max

    from {{ name }}_extremes

),

-- each item's bound on |D_ik| for every partner k outside the candidates
{{ name }}_bounded as (

    select
        keyed.group_key,
        keyed.item_number,
        keyed.draw,
        keyed.z,
        keyed.estimate,
        keyed.se,
    {%- for slot in range(1, slots + 1) %}
        candidates.partner_number_{{ slot }},
        candidates.partner_z_{{ slot }},
        candidates.partner_estimate_{{ slot }},
        candidates.partner_se_{{ slot }},
    {%- endfor %}
        candidates.outside_max,
        case
            when candidates.outside_max is null then null
            when abs(keyed.u) + candidates.outside_max = 0 then 0.0
            else least(keyed.r_high, greatest(keyed.r_low,
                abs(keyed.u) / sqrt(keyed.u * keyed.u + candidates.outside_max * candidates.outside_max)))
        end as r_best,
        abs(keyed.u) as u_abs

    from {{ name }}_keyed as keyed
    inner join {{ name }}_candidates as candidates
        on
            keyed.group_key = candidates.group_key
            and keyed.draw = candidates.draw

),

-- every item against each candidate slot of its draw: D_ik (d_s) and t_ik (t_s); null where
-- the slot is the item itself or empty
{{ name }} as (

    select
        group_key,
        item_number,
        draw,
        case
            when outside_max is null then {{ minus_infinite }}
            else r_best * u_abs + sqrt(greatest(1.0 - r_best * r_best, 0.0)) * outside_max
        end as outside_bound,
    {%- for slot in range(1, slots + 1) %}
            case when partner_number_{{ slot }} != item_number then
                {{ rank_set_scaled_difference('z', 'partner_z_' ~ slot, 'se',
                    'partner_se_' ~ slot, '0.0') }}
            end as d_{{ slot }},
            case when partner_number_{{ slot }} != item_number then
                {{ rank_set_scaled_difference('estimate', 'partner_estimate_' ~ slot, 'se',
                    'partner_se_' ~ slot, '1e300') }}
            end as t_{{ slot }} {%- if not loop.last %},{% endif %}
    {%- endfor %}

    from {{ name }}_bounded

)
{%- endmacro %}
