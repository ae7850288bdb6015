{#- One row per ranked paper: its rank confidence sets (int_rank_sets_estimated;
    docs/rank-confidence-sets.md), the marginal set [marginal_lower, marginal_upper] and whether
    it is possibly or certainly in the top-N, and which path computed them. Null sets for a
    paper the rank sets do not cover. -#}

with

rankings as (

    select * from {{ ref('int_papers_ranked') }}

),

rank_sets as (

    select * from {{ ref('int_rank_sets_estimated') }}

),

final as (

    select
        rankings.venue,
        rankings.category,
        rankings.paper_id,
        rankings.category_rank,
        rank_sets.marginal_lower,
        rank_sets.marginal_upper,
        rank_sets.is_possibly_top_n,
        rank_sets.is_certainly_top_n,
        rank_sets.rank_set_method

    from rankings
    left join rank_sets
        on rankings.paper_id = rank_sets.paper_id

)

select * from final
