-- noqa: disable=LT02,LT05,LT12
-- (unrolled slots, pairs and step-down steps: sqlfluff cannot lay out the Jinja-generated CTEs)
{#-
    Critical values of the scaled rank-set path, as a chain of CTEs ending in `name`: one row per
    (group_key, se_cell) with the cell's marginal critical value, its group's simultaneous one
    and the simultaneous one a step before. `estimates` is int_rank_set_scaled_estimates,
    `draws` int_rank_set_scaled_draws. The statistics are those of the exact path
    (rank_set_step_down.sql), each replaced by an upper bound where the exact path would need
    every paper's draw, so every critical value is at least what the exact path's statistic
    gives in distribution: the sets keep their coverage, at worst a little wider.

    With r = se_i / sqrt(se_i^2 + se_k^2), D_ik = r u_i - sqrt(1 - r^2) u_k, and the largest of
    |r a + sqrt(1 - r^2) b| over a range of r is rank_set_arc_max:

    - Marginal, per cell of similar se [se_low, se_high] (papers of a cell share one value): in
      draw b, the paper's own draw is u_self; against each candidate k exactly, |D_ik| at its
      largest over every se_i of the cell; against the n - 2K others, r |u_self| +
      sqrt(1 - r^2) outside_max at its largest over r from se_i in the cell and se_k in the
      category's [se_min, se_max]. The pairs are those of the first step (no step-down: a
      cell's papers lie anywhere, so no pair can be dropped for all of them). The cell's
      value is the `coverage` quantile over the draws.
    - Simultaneous, per category, with the step-down of the exact path: the pairs of two
      candidates exactly (dropped once rejected: t_jk > c of the step before); a candidate
      against any other paper, r |u_k| + sqrt(1 - r^2) outside_max over r from se_k and the
      category's se range; two others, (r + sqrt(1 - r^2)) outside_max. The bounds are never
      dropped (conservative). Finally it is raised to the category's largest marginal value,
      so the simultaneous sets contain the marginal ones.
-#}
{% macro rank_set_scaled_critical_value_ctes(name, estimates, draws, settings) -%}
    {%- set slots = 2 * settings.candidates -%}
    {%- set infinite = '1e308' -%}
    {%- set minus_infinite = '-1e308' -%}
    {%- set pairs = [] -%}
    {%- for s in range(1, slots + 1) -%}
        {%- for other in range(s + 1, slots + 1) -%}
            {%- do pairs.append((s, other)) -%}
        {%- endfor -%}
    {%- endfor -%}
    {{ name }}_spread as (

    select
        group_key,
        min(se) as se_min,
        max(se) as se_max

    from {{ estimates }}
    group by group_key

),

{{ name }}_cells as (

    select
        group_key,
        se_cell,
        min(se) as cell_se_low,
        max(se) as cell_se_high

    from {{ estimates }}
    group by group_key, se_cell

),

-- each draw's candidates with their papers' estimates and standard errors: one row per
-- (draw, slot) joined once, then side by side again (one join whatever K)
{{ name }}_slots as (

    select
        draws.group_key,
        draws.draw,
        slots.slot,
        case
        {%- for s in range(1, slots + 1) %}
                when slots.slot = {{ s }} then draws.candidate_item_{{ s }}
        {%- endfor %}
        end as candidate_item,
        case
        {%- for s in range(1, slots + 1) %}
                when slots.slot = {{ s }} then draws.candidate_u_{{ s }}
        {%- endfor %}
        end as candidate_u

    from {{ draws }} as draws
    cross join {{ integer_series('slot', slots) }} as slots

),

{{ name }}_candidates as (

    select
        draws.group_key,
        draws.draw,
        max(draws.u_self) as u_self,
        max(draws.outside_max) as outside_max,
        max(spread.se_min) as se_min,
        max(spread.se_max) as se_max,
    {%- for s in range(1, slots + 1) %}
            max(case when slots.slot = {{ s }} then slots.candidate_u end) as candidate_u_{{ s }},
            max(case when slots.slot = {{ s }} then papers.estimate end) as candidate_estimate_{{ s }},
            max(case when slots.slot = {{ s }} then papers.se end) as candidate_se_{{ s }}
            {{- ',' if not loop.last }}
    {%- endfor %}

    from {{ draws }} as draws
    inner join {{ name }}_spread as spread
        on draws.group_key = spread.group_key
    inner join {{ name }}_slots as slots
        on
            draws.group_key = slots.group_key
            and draws.draw = slots.draw
    inner join {{ estimates }} as papers
        on
            slots.group_key = papers.group_key
            and slots.candidate_item = papers.category_item_number
    group by draws.group_key, draws.draw

),

-- marginal: every cell in every draw, with the ranges of r it spans
{{ name }}_marginal_ranges as (

    select
        cells.group_key,
        cells.se_cell,
        candidates.draw,
        candidates.u_self,
        abs(candidates.u_self) as u_self_abs,
        candidates.outside_max,
        {{ rank_set_weight_share('cells.cell_se_low', 'candidates.se_max') }} as outside_r_low,
        {{ rank_set_weight_share('cells.cell_se_high', 'candidates.se_min') }} as outside_r_high,
    {%- for s in range(1, slots + 1) %}
            -candidates.candidate_u_{{ s }} as candidate_u_negated_{{ s }},
            {{ rank_set_weight_share('cells.cell_se_low', 'candidates.candidate_se_' ~ s) }} as r_low_{{ s }},
            {{ rank_set_weight_share('cells.cell_se_high', 'candidates.candidate_se_' ~ s) }} as r_high_{{ s }}
            {{- ',' if not loop.last }}
    {%- endfor %}

    from {{ name }}_cells as cells
    inner join {{ name }}_candidates as candidates
        on cells.group_key = candidates.group_key

),

{{ name }}_marginal_shares as (

    select
        *,
        {{ rank_set_partner_share('outside_r_low') }} as outside_q_low,
        {{ rank_set_partner_share('outside_r_high') }} as outside_q_high,
    {%- for s in range(1, slots + 1) %}
            {{ rank_set_partner_share('r_low_' ~ s) }} as q_low_{{ s }},
            {{ rank_set_partner_share('r_high_' ~ s) }} as q_high_{{ s }}
            {{- ',' if not loop.last }}
    {%- endfor %}

    from {{ name }}_marginal_ranges

),

-- |D| = |r u_self - sqrt(1 - r^2) u_k| at its largest over the cell's r, for each candidate k
-- and (the bound) for every other paper
{{ name }}_marginal_bounds as (

    select
        group_key,
        se_cell,
        draw,
        greatest(
        {%- for s in range(1, slots + 1) %}
                {{ rank_set_arc_max('u_self', 'candidate_u_negated_' ~ s, 'r_low_' ~ s, 'q_low_' ~ s,
                    'r_high_' ~ s, 'q_high_' ~ s) }}
                {{- ',' if not loop.last }}
        {%- endfor %}
        ) as candidates_max,
        {{ rank_set_arc_max('u_self_abs', 'outside_max', 'outside_r_low', 'outside_q_low',
            'outside_r_high', 'outside_q_high') }} as outside_bound

    from {{ name }}_marginal_shares

),

{{ name }}_marginal as (

    select
        group_key,
        se_cell,
        {{ linear_quantile('greatest(candidates_max, outside_bound)', settings.coverage) }}
            as marginal_critical_value,
        avg(case when outside_bound > candidates_max then 1.0 else 0.0 end) as marginal_bound_share

    from {{ name }}_marginal_bounds
    group by group_key, se_cell

),

-- simultaneous: the candidates' pairs exactly, the bounds for every pair with another paper
{{ name }}_pair_shares as (

    select
        *,
        {{ rank_set_weight_share('se_min', 'se_max') }} as outside_r_low,
        {{ rank_set_weight_share('se_max', 'se_min') }} as outside_r_high,
    {%- for s in range(1, slots + 1) %}
            abs(candidate_u_{{ s }}) as candidate_u_abs_{{ s }},
            {{ rank_set_weight_share('candidate_se_' ~ s, 'se_max') }} as r_low_{{ s }},
            {{ rank_set_weight_share('candidate_se_' ~ s, 'se_min') }} as r_high_{{ s }}
            {{- ',' if not loop.last }}
    {%- endfor %}

    from {{ name }}_candidates

),

{{ name }}_pairs as (

    select
        group_key,
        draw,
        greatest(
        {%- for s in range(1, slots + 1) %}
                {{ rank_set_arc_max('candidate_u_abs_' ~ s, 'outside_max',
                    'r_low_' ~ s, rank_set_partner_share('r_low_' ~ s),
                    'r_high_' ~ s, rank_set_partner_share('r_high_' ~ s)) }},
        {%- endfor %}
            {{ rank_set_arc_max('outside_max', 'outside_max',
                'outside_r_low', rank_set_partner_share('outside_r_low'),
                'outside_r_high', rank_set_partner_share('outside_r_high')) }}
        ) as bound_max,
    {%- for s, other in pairs %}
            {{ rank_set_scaled_difference('candidate_estimate_' ~ s, 'candidate_estimate_' ~ other,
                'candidate_se_' ~ s, 'candidate_se_' ~ other, '1e300') }} as t_{{ s }}_{{ other }},
            {{ rank_set_scaled_difference('candidate_se_' ~ s ~ ' * candidate_u_' ~ s,
                'candidate_se_' ~ other ~ ' * candidate_u_' ~ other,
                'candidate_se_' ~ s, 'candidate_se_' ~ other, '0.0') }} as d_{{ s }}_{{ other }}
            {{- ',' if not loop.last }}
    {%- endfor %}

    from {{ name }}_pair_shares

),

{{ name }}_simultaneous_0 as (

    select
        group_key,
        {{ infinite }} as simultaneous_critical_value

    from {{ name }}_spread

)
{%- for step in range(1, settings.steps + 1) %},

    {{ name }}_simultaneous_{{ step }} as (

        select
            pairs.group_key,
            {{ linear_quantile('greatest(pairs.bound_max, ' ~ _scaled_pair_statistics(pairs, 'previous.simultaneous_critical_value') ~ ')',
                settings.coverage) }} as simultaneous_critical_value

        from {{ name }}_pairs as pairs
        inner join {{ name }}_simultaneous_{{ step - 1 }} as previous
            on pairs.group_key = previous.group_key
        group by pairs.group_key

    )
{%- endfor %},

{{ name }} as (

    select
        marginal.group_key,
        marginal.se_cell,
        marginal.marginal_critical_value,
        marginal.marginal_bound_share,
        greatest(
            last_step.simultaneous_critical_value,
            max(marginal.marginal_critical_value) over (partition by marginal.group_key)
        ) as simultaneous_critical_value,
        greatest(
            step_before.simultaneous_critical_value,
            max(marginal.marginal_critical_value) over (partition by marginal.group_key)
        ) as simultaneous_critical_value_previous

    from {{ name }}_marginal as marginal
    inner join {{ name }}_simultaneous_{{ settings.steps }} as last_step
        on marginal.group_key = last_step.group_key
    inner join {{ name }}_simultaneous_{{ settings.steps - 1 }} as step_before
        on marginal.group_key = step_before.group_key

)
{%- endmacro %}

{#- The candidates' pair statistics at threshold `c` (rank_set_pair_statistic), each -1e308
    where both directions are rejected, as a list for greatest(). -#}
{% macro _scaled_pair_statistics(pairs, c) -%}
    {%- set terms = [] -%}
    {%- for name in pairs -%}
        {%- do terms.append('coalesce(' ~ rank_set_pair_statistic('pairs.t_' ~ name[0] ~ '_' ~ name[1],
            'pairs.d_' ~ name[0] ~ '_' ~ name[1], c) ~ ', -1e308)') -%}
    {%- endfor -%}
    {{ terms | join(', ') }}
{%- endmacro %}
