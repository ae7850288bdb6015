{#-
    The ranking under each weight scenario (int_weight_scenarios), one row per (ranked paper,
    scenario). The z-scores are the official ones: only the weights change. In categories larger
    than `weight_tau_max_papers`, papers that cannot reach a scenario's top-N are left out of it.
-#}
{{ config(materialized='table') }}
{%- set settings = rank_uncertainty_settings() -%}
{%- set signals = ranking_signals() -%}
{%- set terms = [] -%}
{%- for signal in signals -%}
    {%- do terms.append('numbered_scenarios.w_' ~ signal ~ ' * papers.z_' ~ signal) -%}
{%- endfor -%}
{%- set scenario_composite = terms | join(' + ') %}

with

papers as (

    select * from {{ ref('int_ranked_papers_numbered') }}

),

numbered_scenarios as (

    select * from {{ ref('int_weight_scenarios') }}

),

scored as (

    select
        papers.category_number,
        papers.paper_number,
        papers.category_size,
        papers.category_rank,
        papers.rating_mean,
        numbered_scenarios.scenario_number,
        {{ scenario_composite }} as scenario_composite

    from papers
    cross join numbered_scenarios

),

-- In a category larger than weight_tau_max_papers only the papers that can reach the top-N
-- are ranked: a paper whose composite is below every point top-N paper's composite in a
-- scenario has N papers above it there. All kept papers rank above all dropped ones, so
-- their ranks are exact; a dropped paper has no row for that scenario.
-- (from the point top-N papers only, so that `scored`, papers x scenarios, is read once and
-- streams instead of being held in memory)
top_n_floors as (

    select
        papers.category_number,
        numbered_scenarios.scenario_number,
        min(round({{ scenario_composite }}, 12)) as top_n_floor

    from papers
    cross join numbered_scenarios
    where papers.category_rank <= {{ var('top_n') }}
    group by papers.category_number, numbered_scenarios.scenario_number

),

candidates as (

    select scored.*
    from scored
    inner join top_n_floors
        on
            scored.category_number = top_n_floors.category_number
            and scored.scenario_number = top_n_floors.scenario_number
    where
        scored.category_size <= {{ settings.weight_tau_max_papers }}
        or scored.category_rank <= {{ var('top_n') }}
        or round(scored.scenario_composite, 12) >= top_n_floors.top_n_floor

),

ranked as (

    select
        category_number,
        paper_number,
        category_rank,
        category_size,
        scenario_number,
        scenario_composite,
        row_number() over (
            partition by category_number, scenario_number
            order by {{ ranking_order('scenario_composite', paper_id='paper_number') }}
        ) as scenario_rank

    from candidates

),

final as (

    select
        papers.venue,
        papers.category,
        papers.paper_id,
        ranked.category_rank,
        ranked.category_size,
        numbered_scenarios.scenario,
        numbered_scenarios.scenario_kind,
        numbered_scenarios.left_out_signal,
        numbered_scenarios.draw,
        ranked.scenario_composite,
        ranked.scenario_rank

    from ranked
    inner join papers
        on ranked.paper_number = papers.paper_number
    inner join numbered_scenarios
        on ranked.scenario_number = numbered_scenarios.scenario_number

)

select * from final
