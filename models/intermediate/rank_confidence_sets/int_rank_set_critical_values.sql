{#-
    Step-down critical values of the rank confidence sets (macros/rank_sets/
    rank_set_step_down.sql): per paper its marginal critical value and its category's
    simultaneous one, with those of the step before.
-#}
{{ config(materialized='table') }}
{%- set settings = rank_sets_settings() %}

with

estimates as (

    select * from {{ ref('int_rank_set_estimates') }}

),

partners as (

    select * from {{ ref('int_rank_set_draw_partners') }}

),

{{ rank_set_step_down_ctes('critical', 'estimates', 'partners', settings) }},

final as (

    select * from critical

)

select * from final
