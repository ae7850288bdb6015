{#-
    Critical values of the scaled rank-set path (macros/rank_sets/
    rank_set_scaled_critical_values.sql): per (category, cell of similar standard errors) the
    cell's marginal critical value, and the category's simultaneous one after rank_sets_steps
    step-down steps with the one a step before. Bounds where the exact path compares every
    pair, so never below what the exact path would give: the sets keep their coverage.
-#}
{{ config(materialized='table') }}
{%- set settings = rank_sets_settings() %}
-- With no category on the scaled path only the empty branch is written, and it reads no draws:
-- noqa: disable=ST03

with

estimates as (

    select * from {{ ref('int_rank_set_scaled_estimates') }}

),

draws as (

    select * from {{ ref('int_rank_set_scaled_draws') }}

),

{%- if rank_set_scaled_path_used(ref('int_rank_set_categories')) %}

    {{ rank_set_scaled_critical_value_ctes('critical', 'estimates', 'draws', settings) }},

    final as (

        select * from critical

    )
{%- else %}

    -- no category takes the scaled path: the same columns, no rows
    final as (

        select
            group_key,
            se_cell,
            cast(0 as double) as marginal_critical_value,
            cast(0 as double) as marginal_bound_share,
            cast(0 as double) as simultaneous_critical_value,
            cast(0 as double) as simultaneous_critical_value_previous

        from estimates

    )
{%- endif %}

select * from final
