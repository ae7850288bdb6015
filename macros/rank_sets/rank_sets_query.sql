{#-
    The exact rank-set computation over one table of estimates, as one query: what
    `paperrank rank-sets FILE` runs (paperrank/ranksets/; rendered by dbt into the gitignored
    .cache/rank-sets/, paperrank/ranksets/cache.py) when its draws fit the row budget,
    with the same macros as the models. `relation` has the columns item_key (text id),
    item_number (1..n), estimate and se, one group; `options` holds coverage, draws, seed and
    optionally tau (checked by rank_sets_settings). The columns are those of the command's CSV.
    The larger tables take rank_sets_scaled_query.
-#}
{% macro rank_sets_query(relation, options) -%}
    {%- set tau = options.get('tau') -%}
{%- set settings = rank_sets_settings({'coverage': options.coverage, 'draws': options.draws,
    'seed': options.seed}) -%}
with

estimates as (

    select
        1 as group_key,
        item_number,
        item_key,
        estimate,
        se

    from {{ relation }}

),

{{ rank_set_draw_ctes('draws', 'estimates', settings) }},

{{ rank_set_partner_ctes('partners', 'estimates', 'draws', settings) }},

{{ rank_set_step_down_ctes('critical', 'estimates', 'partners', settings) }},

{{ rank_set_bound_ctes('bounds', 'estimates', 'critical', tau=tau) }},

final as (

    select
        estimates.item_key as id,
        estimates.estimate,
        estimates.se,
        cast(bounds.estimate_rank as bigint) as rank,
        cast(bounds.marginal_lower as bigint) as marginal_lower,
        cast(bounds.marginal_upper as bigint) as marginal_upper,
        cast(bounds.simultaneous_lower as bigint) as simultaneous_lower,
        cast(bounds.simultaneous_upper as bigint) as simultaneous_upper
    {%- if tau is not none %},
            bounds.is_tau_best as tau_best
    {%- endif %}

    from estimates
    inner join bounds
        on
            estimates.group_key = bounds.group_key
            and estimates.item_number = bounds.item_number

)

select * from final
order by rank, id
{%- endmacro %}
