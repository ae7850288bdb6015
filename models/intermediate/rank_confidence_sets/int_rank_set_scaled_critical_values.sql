{#-
    Critical values of the scaled rank-set path (macros/rank_sets/
    rank_set_scaled_critical_values.sql): per (category, cell of similar standard errors) the
    cell's marginal critical value, and the category's simultaneous one after rank_sets_steps
    step-down steps with the one a step before. Bounds where the exact path compares every
    pair, so never below what the exact path would give: the sets keep their coverage.
-#}
{{ config(materialized='table') }}
{%- set settings = rank_sets_settings() %}

with

estimates as (

    select * from {{ ref('int_rank_set_scaled_estimates') }}

),

draws as (

    select * from {{ ref('int_rank_set_scaled_draws') }}

),

{{ rank_set_scaled_critical_value_ctes('critical', 'estimates', 'draws', settings) }},

final as (

    select * from critical

)

select * from final
