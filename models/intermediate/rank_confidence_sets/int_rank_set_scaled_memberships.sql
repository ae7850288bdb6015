{#-
    Exact memberships of the scaled rank-set path at its simultaneous critical value
    (macros/rank_sets/rank_set_scaled_memberships.sql): per paper whether it is possibly in the
    top-N (null where the brackets of its cell leave it open, and then the exact count of the
    partners that beat it) and, for each category's top N by estimate, the exact count of the
    partners it beats (certainly in the top-N needs at least n - N).
-#}
{{ config(materialized='table') }}

with

estimates as (

    select * from {{ ref('int_rank_set_scaled_estimates') }}

),

critical_values as (

    select * from {{ ref('int_rank_set_scaled_critical_values') }}

),

{{ rank_set_scaled_paper_ctes('papers', 'estimates', 'critical_values') }},

{{ rank_set_scaled_membership_ctes('memberships', 'papers', var('top_n')) }},

final as (

    select * from memberships

)

select * from final
