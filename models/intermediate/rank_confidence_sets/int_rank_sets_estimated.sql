{#-
    Rank confidence sets per ranked paper (Mogstad, Romano, Shaikh and Wilhelm 2024, as
    csranks computes them; docs/rank-confidence-sets.md): the marginal set [marginal_lower,
    marginal_upper] covers the paper's true rank with probability >= rank_sets_coverage; the
    simultaneous sets cover every rank of the category at once; is_possibly_top_n is the
    tau-best set with tau = top_n (with that probability it holds every paper truly in the
    top-N) and is_certainly_top_n the papers whose simultaneous upper bound is <= top_n.
    Rank 1 is the highest composite.

    Two paths (int_rank_set_categories): `exact` categories are computed here from the exact
    path's critical values; `scaled` ones (too large for papers x B draw rows) come from
    int_rank_sets_scaled, conservative (at worst a little wider, the same coverage).
    rank_set_method says which.
-#}
{%- set settings = rank_sets_settings() %}

with

estimates as (

    select * from {{ ref('int_rank_set_estimates') }}

),

critical_values as (

    select * from {{ ref('int_rank_set_critical_values') }}

),

scaled as (

    select * from {{ ref('int_rank_sets_scaled') }}

),

{{ rank_set_bound_ctes('bounds', 'estimates', 'critical_values', tau=var('top_n')) }},

exact as (

    select
        estimates.venue,
        estimates.category,
        estimates.paper_id,
        estimates.category_rank,
        estimates.category_size,
        estimates.estimate as composite,
        estimates.se as composite_se,
        cast(bounds.marginal_lower as bigint) as marginal_lower,
        cast(bounds.marginal_upper as bigint) as marginal_upper,
        cast(bounds.simultaneous_lower as bigint) as simultaneous_lower,
        cast(bounds.simultaneous_upper as bigint) as simultaneous_upper,
        bounds.is_tau_best as is_possibly_top_n,
        bounds.is_certainly_tau_best as is_certainly_top_n,
        bounds.marginal_critical_value,
        bounds.simultaneous_critical_value,
        bounds.marginal_bound_share,
        bounds.marginal_converged,
        bounds.simultaneous_converged,
        'exact' as rank_set_method

    from estimates
    inner join bounds
        on
            estimates.group_key = bounds.group_key
            and estimates.item_number = bounds.item_number

),

both_paths as (

    select * from exact

    union all

    select
        *,
        'scaled' as rank_set_method

    from scaled

),

final as (

    select
        *,
        {{ settings.coverage | float }} as coverage,
        {{ settings.draws }} as draws

    from both_paths

)

select * from final
