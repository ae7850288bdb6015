{#-
    Rank confidence sets of the categories on the scaled path (int_rank_set_categories), in the
    columns of int_rank_sets_estimated. Bounds as on the exact path, lower = 1 + #{k beat i},
    upper = n - #{i beats k}, from the bucketed counts (int_rank_set_scaled_counts); the
    simultaneous ones then take the exact counts where the memberships needed them
    (int_rank_set_scaled_memberships), and the marginal set is cut to the simultaneous one (in
    exact counts it lies inside it: the marginal critical value is never above the
    simultaneous one). Conservative: at worst a little wider than the exact path's sets, with
    the same coverage and the same possibly / certainly memberships at these critical values.
    marginal_converged is null: the scaled marginal values take the first step's pairs (no
    step-down).
-#}
{{ config(materialized='table') }}
{%- set top_n = var('top_n') | int %}

with

estimates as (

    select * from {{ ref('int_rank_set_scaled_estimates') }}

),

critical_values as (

    select * from {{ ref('int_rank_set_scaled_critical_values') }}

),

counts as (

    select * from {{ ref('int_rank_set_scaled_counts') }}

),

memberships as (

    select * from {{ ref('int_rank_set_scaled_memberships') }}

),

simultaneous as (

    select
        estimates.venue,
        estimates.category,
        estimates.paper_id,
        estimates.category_rank,
        estimates.category_size,
        estimates.estimate,
        estimates.se,
        counts.marginal_beaten_by + 1 as marginal_lower_counted,
        estimates.category_size - counts.marginal_beats as marginal_upper_counted,
        case
            when memberships.is_possibly_decided is null
                then coalesce(memberships.simultaneous_beaten_by, 0) + 1
            when memberships.is_possibly_decided then counts.simultaneous_beaten_by + 1
            -- decided out: at least top_n papers beat it, whatever the buckets counted
            else greatest(counts.simultaneous_beaten_by + 1, {{ top_n }} + 1)
        end as simultaneous_lower,
        estimates.category_size
        - coalesce(memberships.simultaneous_beats, counts.simultaneous_beats) as simultaneous_upper,
        critical.marginal_critical_value,
        critical.simultaneous_critical_value,
        critical.marginal_bound_share,
        critical.simultaneous_critical_value = critical.simultaneous_critical_value_previous
            as simultaneous_converged

    from estimates
    inner join critical_values as critical
        on
            estimates.group_key = critical.group_key
            and estimates.se_cell = critical.se_cell
    inner join counts
        on
            estimates.group_key = counts.group_key
            and estimates.category_item_number = counts.category_item_number
    inner join memberships
        on
            estimates.group_key = memberships.group_key
            and estimates.category_item_number = memberships.category_item_number

),

final as (

    select
        venue,
        category,
        paper_id,
        category_rank,
        category_size,
        estimate as composite,
        se as composite_se,
        cast(greatest(marginal_lower_counted, simultaneous_lower) as bigint) as marginal_lower,
        cast(least(marginal_upper_counted, simultaneous_upper) as bigint) as marginal_upper,
        cast(simultaneous_lower as bigint) as simultaneous_lower,
        cast(simultaneous_upper as bigint) as simultaneous_upper,
        simultaneous_lower <= {{ top_n }} as is_possibly_top_n,
        simultaneous_upper <= {{ top_n }} as is_certainly_top_n,
        marginal_critical_value,
        simultaneous_critical_value,
        marginal_bound_share,
        cast(null as boolean) as marginal_converged,
        simultaneous_converged

    from simultaneous

)

select * from final
