{#-
    Rank confidence sets from the critical values, as a chain of CTEs ending in `name`: per
    item its rank (1 + the number of items with a larger estimate: ties share the best rank),
    the marginal and simultaneous bounds and, with `tau`, whether it is in the tau-best set.

    As in csranks (csranks_simul): lower = 1 + #{k : (k, i) rejected}, upper =
    n - #{k : (i, k) rejected}, where (j, k) is rejected when t_jk > c. The tau-best set
    (cstaubest) is {i : simultaneous lower <= tau}: csranks draws it from the one-sided
    simultaneous procedure over all ordered pairs, which with the step-down rejects exactly the
    pairs the two-sided simultaneous one does (both start from every ordered pair and compare
    max D_jk with t_jk), so with the same draws it is read off the simultaneous lower bound.
    `certainly` is {i : simultaneous upper <= tau}, inside the tau-best set because lower <=
    upper. `*_converged` says whether the last unrolled step rejected nothing new.

    Every pair of a group is counted once (no draws): n^2 rows per group.
-#}
{% macro rank_set_bound_ctes(name, estimates, critical_values, tau=none) -%}
    {{ name }}_items as (

    select
        items.group_key,
        items.item_number,
        items.estimate,
        items.se,
        critical.marginal_critical_value,
        critical.marginal_critical_value_previous,
        critical.simultaneous_critical_value,
        critical.simultaneous_critical_value_previous,
        critical.marginal_bound_share

    from {{ estimates }} as items
    inner join {{ critical_values }} as critical
        on
            items.group_key = critical.group_key
            and items.item_number = critical.item_number

),

{{ name }}_pairs as (

    select
        items.group_key,
        items.item_number,
        {{ rank_set_scaled_difference('items.estimate', 'others.estimate', 'items.se', 'others.se', '1e300') }}
            as t,
        items.estimate < others.estimate as is_below,
        items.marginal_critical_value,
        items.marginal_critical_value_previous,
        items.simultaneous_critical_value,
        items.simultaneous_critical_value_previous

    from {{ name }}_items as items
    inner join {{ name }}_items as others
        on
            items.group_key = others.group_key
            and items.item_number != others.item_number

),

{{ name }}_counts as (

    select
        group_key,
        item_number,
        count(*) + 1 as group_size,
        sum(case when is_below then 1 else 0 end) as above_count,
    {%- set counted = [] -%}
    {%- for kind in ('marginal', 'simultaneous') -%}
        {%- for suffix in ('', '_previous') -%}
                {%- do counted.append('sum(case when -t > ' ~ kind ~ '_critical_value' ~ suffix
                    ~ ' then 1 else 0 end) as ' ~ kind ~ '_beaten_by' ~ suffix) -%}
                {%- do counted.append('sum(case when t > ' ~ kind ~ '_critical_value' ~ suffix
                    ~ ' then 1 else 0 end) as ' ~ kind ~ '_beats' ~ suffix) -%}
        {%- endfor -%}
    {%- endfor %}
    {{ counted | join(',\n        ') }}

    from {{ name }}_pairs
    group by group_key, item_number

),

{{ name }} as (

    select
        items.group_key,
        items.item_number,
        items.estimate,
        items.se,
        coalesce(counts.group_size, 1) as group_size,
        coalesce(counts.above_count, 0) + 1 as estimate_rank,
        coalesce(counts.marginal_beaten_by, 0) + 1 as marginal_lower,
        coalesce(counts.group_size, 1) - coalesce(counts.marginal_beats, 0) as marginal_upper,
        coalesce(counts.simultaneous_beaten_by, 0) + 1 as simultaneous_lower,
        coalesce(counts.group_size, 1) - coalesce(counts.simultaneous_beats, 0) as simultaneous_upper,
    {%- if tau is not none %}
            coalesce(counts.simultaneous_beaten_by, 0) + 1 <= {{ tau | int }} as is_tau_best,
            coalesce(counts.group_size, 1) - coalesce(counts.simultaneous_beats, 0) <= {{ tau | int }}
                as is_certainly_tau_best,
    {%- endif %}
        items.marginal_critical_value,
        items.simultaneous_critical_value,
        items.marginal_bound_share,
        coalesce(
            counts.marginal_beaten_by = counts.marginal_beaten_by_previous
            and counts.marginal_beats = counts.marginal_beats_previous,
            true
        ) as marginal_converged,
        coalesce(
            counts.simultaneous_beaten_by = counts.simultaneous_beaten_by_previous
            and counts.simultaneous_beats = counts.simultaneous_beats_previous,
            true
        ) as simultaneous_converged

    from {{ name }}_items as items
    left join {{ name }}_counts as counts
        on
            items.group_key = counts.group_key
            and items.item_number = counts.item_number

)
{%- endmacro %}
