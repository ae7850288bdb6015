{#-
    Rank confidence sets of the scaled path from its counts, as a chain of CTEs ending in
    `name`: one row per (group_key, category_item_number) of `estimates`
    (rank_set_scaled_estimate_ctes) with the bounds, the tau-best flags and the critical values.

    Bounds as on the exact path, lower = 1 + #{k beat i}, upper = n - #{i beats k}, from the
    bucketed counts (`counts`, rank_set_scaled_count_ctes); with `tau` the simultaneous ones
    then take the exact counts where the memberships needed them (`memberships`,
    rank_set_scaled_membership_ctes), and the marginal set is cut to the simultaneous one (in
    exact counts it lies inside it: the marginal critical value is never above the simultaneous
    one). Conservative: at worst a little wider than the exact path's sets, with the same
    coverage and, with `tau`, the same possibly / certainly memberships at these critical
    values. Without `tau` (`paperrank rank-sets` without --tau) there are no memberships: every
    bound is the bucketed count's. marginal_converged is null: the scaled marginal values take
    the first step's pairs (no step-down).
-#}
{% macro rank_set_scaled_set_ctes(name, estimates, critical_values, counts, memberships=none, tau=none) -%}
    {{ name }}_simultaneous as (

    select
        estimates.group_key,
        estimates.category_item_number,
        counts.marginal_beaten_by + 1 as marginal_lower_counted,
        estimates.category_size - counts.marginal_beats as marginal_upper_counted,
    {%- if tau is none %}
            counts.simultaneous_beaten_by + 1 as simultaneous_lower,
            estimates.category_size - counts.simultaneous_beats as simultaneous_upper,
    {%- else %}
            case
                when memberships.is_possibly_decided is null
                    then coalesce(memberships.simultaneous_beaten_by, 0) + 1
                when memberships.is_possibly_decided then counts.simultaneous_beaten_by + 1
                -- decided out: at least tau papers beat it, whatever the buckets counted
                else greatest(counts.simultaneous_beaten_by + 1, {{ tau | int }} + 1)
            end as simultaneous_lower,
            estimates.category_size
            - coalesce(memberships.simultaneous_beats, counts.simultaneous_beats) as simultaneous_upper,
    {%- endif %}
        critical.marginal_critical_value,
        critical.simultaneous_critical_value,
        critical.marginal_bound_share,
        critical.simultaneous_critical_value = critical.simultaneous_critical_value_previous
            as simultaneous_converged

    from {{ estimates }} as estimates
    inner join {{ critical_values }} as critical
        on
            estimates.group_key = critical.group_key
            and estimates.se_cell = critical.se_cell
    inner join {{ counts }} as counts
        on
            estimates.group_key = counts.group_key
            and estimates.category_item_number = counts.category_item_number
    {%- if tau is not none %}
        inner join {{ memberships }} as memberships
            on
                estimates.group_key = memberships.group_key
                and estimates.category_item_number = memberships.category_item_number
    {%- endif %}

),

{{ name }} as (

    select
        group_key,
        category_item_number,
        cast(greatest(marginal_lower_counted, simultaneous_lower) as bigint) as marginal_lower,
        cast(least(marginal_upper_counted, simultaneous_upper) as bigint) as marginal_upper,
        cast(simultaneous_lower as bigint) as simultaneous_lower,
        cast(simultaneous_upper as bigint) as simultaneous_upper,
    {%- if tau is not none %}
            simultaneous_lower <= {{ tau | int }} as is_tau_best,
            simultaneous_upper <= {{ tau | int }} as is_certainly_tau_best,
    {%- endif %}
        marginal_critical_value,
        simultaneous_critical_value,
        marginal_bound_share,
        cast(null as boolean) as marginal_converged,
        simultaneous_converged

    from {{ name }}_simultaneous

)
{%- endmacro %}
