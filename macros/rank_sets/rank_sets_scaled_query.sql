-- noqa: disable=LT02
-- (a chain of macro-made CTEs, one of them optional: sqlfluff cannot lay out the lines around it)
{#-
    The scaled path of `paperrank rank-sets` as one query (paperrank/ranksets/), for a table
    whose exact path would need more draw rows than rank_sets_row_budget: the macros of the
    models' scaled path (int_rank_set_scaled_*, int_rank_sets_scaled) over one group, in the
    columns of rank_sets_query. `relation` has item_key (text id), estimate and se; `options`
    holds coverage, draws, seed and optionally tau (checked by rank_sets_settings). The rank is
    1 + the number of larger estimates, as on the exact path; the memberships' "top tau by
    estimate" (category_rank, a production rank in the models) are the tau largest, ties by id:
    a paper with tau others at or above it cannot beat them, so it is never certainly in the
    top tau, and tied papers past the tau-th cost no exact count. The draws' stream is keyed by
    'rank-sets-scaled/rank-sets'. Without tau there are no exact memberships: the bounds are
    the bucketed counts' (rank_set_scaled_set_ctes).
-#}
{% macro rank_sets_scaled_query(relation, options) -%}
    {%- set tau = options.get('tau') -%}
{%- set settings = rank_sets_settings({'coverage': options.coverage, 'draws': options.draws,
    'seed': options.seed}) -%}
with

papers as (

    select
        1 as group_key,
        item_key,
        estimate,
        se,
        count(*) over () as category_size,
        rank() over (order by estimate desc) as estimate_rank,
        row_number() over (order by estimate desc, item_key) as category_rank

    from {{ relation }}

),

{{ rank_set_scaled_estimate_ctes('estimates', 'papers', 'item_key', settings) }},

groups as (

    select
        group_key,
        max(category_size) as group_size,
        'rank-sets' as group_stream_key

    from papers
    group by group_key

),

{{ rank_set_scaled_draw_ctes('draws', 'groups', settings) }},

{{ rank_set_scaled_critical_value_ctes('critical', 'estimates', 'draws', settings) }},

{{ rank_set_scaled_paper_ctes('scaled_papers', 'estimates', 'critical') }},

{{ rank_set_scaled_count_ctes('counts', 'scaled_papers', 'estimates', settings.se_buckets) }},

{%- if tau is not none %}

{{ rank_set_scaled_membership_ctes('memberships', 'scaled_papers', tau) }},
{%- endif %}

{{ rank_set_scaled_set_ctes('sets', 'estimates', 'critical', 'counts', 'memberships', tau) }},

final as (

    select
        estimates.item_key as id,
        estimates.estimate,
        estimates.se,
        cast(estimates.estimate_rank as bigint) as rank,
        sets.marginal_lower,
        sets.marginal_upper,
        sets.simultaneous_lower,
        sets.simultaneous_upper
    {%- if tau is not none %},
            sets.is_tau_best as tau_best
    {%- endif %}

    from estimates
    inner join sets
        on
            estimates.group_key = sets.group_key
            and estimates.category_item_number = sets.category_item_number

)

select * from final
order by rank, id
{%- endmacro %}
