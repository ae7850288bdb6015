{#-
    Per (paper, draw) of the rank confidence sets: the scaled differences against the draw's
    candidate partners and the bound for all other papers (macros/rank_sets/
    rank_set_partners.sql). On DuckDB a view: its one reader (int_rank_set_critical_values)
    holds it in memory for the step-down's steps, which is faster than writing its 19 columns x
    papers x B rows to the warehouse file and reading them back. On Spark a table, as every
    intermediate model there (a Spark view would be computed again for each step).
-#}
{{ config(materialized=('table' if target.type == 'spark' else 'view')) }}
{%- set settings = rank_sets_settings() %}

with

estimates as (

    select * from {{ ref('int_rank_set_estimates') }}

),

draws as (

    select * from {{ ref('int_rank_set_draws') }}

),

{{ rank_set_partner_ctes('partners', 'estimates', 'draws', settings) }},

final as (

    select * from partners

)

select * from final
