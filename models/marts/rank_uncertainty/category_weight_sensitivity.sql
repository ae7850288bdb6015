{%- set settings = rank_uncertainty_settings() -%}
{%- set top_n = var('top_n') -%}

with

reweighted as (

    select * from {{ ref('int_weight_scenario_ranks') }}

),

scenario_overlaps as (

    select
        venue,
        category,
        scenario,
        scenario_kind,
        left_out_signal,
        draw,
        max(category_size) as category_size,
        count(*) filter (where category_rank <= {{ top_n }} and scenario_rank <= {{ top_n }})
            as top_n_overlap,
        least(max(category_size), {{ top_n }}) as top_n_papers

    from reweighted
    group by venue, category, scenario, scenario_kind, left_out_signal, draw

),

-- Kendall's tau between the official and the scenario ranks: ranks have no ties, so
-- tau = 1 - 2 * discordant / pairs; pairs are counted only where the category is small enough.
-- Both of a discordant pair's inequalities are join conditions, so that DuckDB joins on the two
-- ranks' order (an inequality join) instead of forming every pair of the category and filtering;
-- a scenario with no discordant pair has no row here, and final reads it as 0
tau_papers as (

    select reweighted.*
    from reweighted
    inner join scenario_overlaps
        on
            reweighted.venue = scenario_overlaps.venue
            and reweighted.category = scenario_overlaps.category
            and reweighted.scenario = scenario_overlaps.scenario
    where scenario_overlaps.category_size <= {{ settings.weight_tau_max_papers }}

),

discordance as (

    select
        better.venue,
        better.category,
        better.scenario,
        count(*) as discordant_pairs

    from tau_papers as better
    inner join tau_papers as worse
        on
            better.venue = worse.venue
            and better.category = worse.category
            and better.scenario = worse.scenario
            and better.category_rank < worse.category_rank
            and better.scenario_rank > worse.scenario_rank
    group by better.venue, better.category, better.scenario

),

final as (

    select
        scenario_overlaps.venue,
        scenario_overlaps.category,
        scenario_overlaps.scenario,
        scenario_overlaps.scenario_kind,
        scenario_overlaps.left_out_signal,
        scenario_overlaps.draw,
        scenario_overlaps.category_size,
        scenario_overlaps.top_n_papers,
        scenario_overlaps.top_n_overlap,
        scenario_overlaps.top_n_overlap / scenario_overlaps.top_n_papers as top_n_overlap_share,
        case
            when scenario_overlaps.category_size = 1 then 1.0
            when scenario_overlaps.category_size <= {{ settings.weight_tau_max_papers }}
                then
                    -- in doubles on both engines (Spark would keep 1.0 and 4.0 as decimals)
                    1.0 - 4.0 * cast(coalesce(discordance.discordant_pairs, 0) as double)
                    / cast(scenario_overlaps.category_size * (scenario_overlaps.category_size - 1) as double)
        end as kendall_tau

    from scenario_overlaps
    left join discordance
        on
            scenario_overlaps.venue = discordance.venue
            and scenario_overlaps.category = discordance.category
            and scenario_overlaps.scenario = discordance.scenario

)

select * from final
