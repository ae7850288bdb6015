{%- set top_n = var('top_n') -%}

with

rankings as (

    select * from {{ ref('paper_rankings') }}

),

reweighted as (

    select * from {{ ref('int_paper_ranks_reweighted') }}

),

per_paper as (

    select
        paper_id,
        count(*) filter (where scenario_kind = 'dirichlet') as weight_draws,
        avg(case when scenario_rank <= {{ top_n }} then 1.0 else 0.0 end)
            filter (where scenario_kind = 'dirichlet') as p_top_n_weights,
        percentile_disc(0.05) within group (order by scenario_rank)
            filter (where scenario_kind = 'dirichlet') as weight_rank_p05,
        percentile_disc(0.95) within group (order by scenario_rank)
            filter (where scenario_kind = 'dirichlet') as weight_rank_p95,
        min(scenario_rank) filter (where scenario_kind = 'leave_one_out') as leave_one_out_best_rank,
        max(scenario_rank) filter (where scenario_kind = 'leave_one_out') as leave_one_out_worst_rank,
        coalesce(bool_and(scenario_rank <= {{ top_n }}) filter (where scenario_kind = 'leave_one_out'), false)
            as is_top_n_in_every_leave_one_out

    from reweighted
    group by paper_id

),

final as (

    select
        rankings.venue,
        rankings.category,
        rankings.paper_id,
        rankings.category_rank,
        rankings.is_top_n,
        per_paper.weight_draws,
        per_paper.p_top_n_weights,
        per_paper.weight_rank_p05,
        per_paper.weight_rank_p95,
        per_paper.leave_one_out_best_rank,
        per_paper.leave_one_out_worst_rank,
        per_paper.is_top_n_in_every_leave_one_out

    from rankings
    inner join per_paper
        on rankings.paper_id = per_paper.paper_id

)

select * from final
