{%- set top_n = var('top_n') -%}

with

rankings as (

    select * from {{ ref('paper_rankings') }}

),

reweighted as (

    select * from {{ ref('int_weight_scenario_ranks') }}

),

scenario_counts as (

    select
        count(distinct scenario) filter (where scenario_kind = 'dirichlet') as weight_draws,
        count(distinct scenario) filter (where scenario_kind = 'leave_one_out') as leave_one_out_sets

    from reweighted

),

-- a paper has a row for every scenario unless it was left out of one far from the top-N
-- (large categories): then its rank percentiles and worst rank are unknown (null); the
-- percentiles are bigint, as on DuckDB (Spark's percentile_disc returns a double)
per_paper as (

    select
        reweighted.paper_id,
        count(*) filter (where reweighted.scenario_kind = 'dirichlet') as draw_rows,
        count(*) filter (where reweighted.scenario_kind = 'leave_one_out') as leave_one_out_rows,
        count(*) filter (
            where reweighted.scenario_kind = 'dirichlet' and reweighted.scenario_rank <= {{ top_n }}
        )
            as top_n_draws,
        cast(
            percentile_disc(0.05) within group (order by reweighted.scenario_rank)
            filter (where reweighted.scenario_kind = 'dirichlet') as bigint
        ) as weight_rank_p05,
        cast(
            percentile_disc(0.95) within group (order by reweighted.scenario_rank)
            filter (where reweighted.scenario_kind = 'dirichlet') as bigint
        ) as weight_rank_p95,
        cast(
            min(reweighted.scenario_rank) filter (where reweighted.scenario_kind = 'leave_one_out') as bigint
        ) as leave_one_out_best_rank,
        cast(
            max(reweighted.scenario_rank) filter (where reweighted.scenario_kind = 'leave_one_out') as bigint
        ) as leave_one_out_worst_rank,
        count(*) filter (
            where reweighted.scenario_kind = 'leave_one_out' and reweighted.scenario_rank <= {{ top_n }}
        ) as top_n_leave_one_outs

    from reweighted
    group by reweighted.paper_id

),

final as (

    select
        rankings.venue,
        rankings.category,
        rankings.paper_id,
        rankings.category_rank,
        rankings.is_top_n,
        scenario_counts.weight_draws,
        coalesce(per_paper.top_n_draws, 0) / nullif(scenario_counts.weight_draws, 0) as p_top_n_weights,
        case when per_paper.draw_rows = scenario_counts.weight_draws then per_paper.weight_rank_p05 end
            as weight_rank_p05,
        case when per_paper.draw_rows = scenario_counts.weight_draws then per_paper.weight_rank_p95 end
            as weight_rank_p95,
        case
            when per_paper.leave_one_out_rows = scenario_counts.leave_one_out_sets
                then per_paper.leave_one_out_best_rank
        end as leave_one_out_best_rank,
        case
            when per_paper.leave_one_out_rows = scenario_counts.leave_one_out_sets
                then per_paper.leave_one_out_worst_rank
        end as leave_one_out_worst_rank,
        coalesce(per_paper.top_n_leave_one_outs = scenario_counts.leave_one_out_sets, false)
            as is_top_n_in_every_leave_one_out

    from rankings
    cross join scenario_counts
    left join per_paper
        on rankings.paper_id = per_paper.paper_id

)

select * from final
