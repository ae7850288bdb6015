{#-
    The parametric bootstrap's standard normal draws of the rank confidence sets: one row per
    (paper, draw b = 1..rank_sets_draws), u ~ N(0, 1) from the seeded SplitMix64 streams
    (macros/rank_sets/rank_set_draws.sql). Its own model, as random draws are in this project,
    so the critical values read fixed numbers. Materialized: read once per step-down step.
-#}
{{ config(materialized='table') }}
{%- set settings = rank_sets_settings() %}

with

estimates as (

    select * from {{ ref('int_rank_set_estimates') }}

),

{{ rank_set_draw_ctes('draws', 'estimates', settings) }},

final as (

    select * from draws

)

select * from final
