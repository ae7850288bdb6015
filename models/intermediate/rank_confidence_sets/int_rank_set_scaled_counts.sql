{#-
    Pair counts of the scaled rank-set path (macros/rank_sets/rank_set_scaled_counts.sql): per
    paper how many partners it beats and is beaten by at its cell's marginal and at its
    category's simultaneous critical value, counted by buckets of se and bins of the estimates
    instead of every pair. A rejected pair may go uncounted, never the reverse, so the sets
    built on these counts are at worst a little wider than the exact ones.
-#}
{{ config(materialized='table') }}
{%- set settings = rank_sets_settings() %}

with

estimates as (

    select * from {{ ref('int_rank_set_scaled_estimates') }}

),

critical_values as (

    select * from {{ ref('int_rank_set_scaled_critical_values') }}

),

{{ rank_set_scaled_paper_ctes('papers', 'estimates', 'critical_values') }},

{{ rank_set_scaled_count_ctes('counts', 'papers', 'estimates', settings.se_buckets) }},

final as (

    select * from counts

)

select * from final
