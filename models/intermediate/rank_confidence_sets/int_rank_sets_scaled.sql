{#-
    Rank confidence sets of the categories on the scaled path (int_rank_set_categories), in the
    columns of int_rank_sets_estimated (macros/rank_sets/rank_set_scaled_sets.sql). Bounds as on
    the exact path, lower = 1 + #{k beat i}, upper = n - #{i beats k}, from the bucketed counts
    (int_rank_set_scaled_counts); the simultaneous ones then take the exact counts where the
    memberships needed them (int_rank_set_scaled_memberships), and the marginal set is cut to the
    simultaneous one (in exact counts it lies inside it: the marginal critical value is never
    above the simultaneous one). Conservative: at worst a little wider than the exact path's
    sets, with the same coverage and the same possibly / certainly memberships at these critical
    values. marginal_converged is null: the scaled marginal values take the first step's pairs
    (no step-down).
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

{{ rank_set_scaled_set_ctes('sets', 'estimates', 'critical_values', 'counts', 'memberships', top_n) }},

final as (

    select
        estimates.venue,
        estimates.category,
        estimates.paper_id,
        estimates.category_rank,
        estimates.category_size,
        estimates.estimate as composite,
        estimates.se as composite_se,
        sets.marginal_lower,
        sets.marginal_upper,
        sets.simultaneous_lower,
        sets.simultaneous_upper,
        sets.is_tau_best as is_possibly_top_n,
        sets.is_certainly_tau_best as is_certainly_top_n,
        sets.marginal_critical_value,
        sets.simultaneous_critical_value,
        sets.marginal_bound_share,
        sets.marginal_converged,
        sets.simultaneous_converged

    from estimates
    inner join sets
        on
            estimates.group_key = sets.group_key
            and estimates.category_item_number = sets.category_item_number

)

select * from final
