{#- One row per ranked venue and category: how many papers are possibly and certainly in its
    top-N (paper_rank_sets), and how rankable it is at all (int_category_rankability: the share
    of the composites' variance that is between papers, and that share with one more review). -#}

with

rank_sets as (

    select * from {{ ref('paper_rank_sets') }}

),

rankability as (

    select * from {{ ref('int_category_rankability') }}

),

per_category as (

    select
        venue,
        category,
        count(*) filter (where is_possibly_top_n) as possibly_top_n_papers,
        count(*) filter (where is_certainly_top_n) as certainly_top_n_papers

    from rank_sets
    group by venue, category

),

final as (

    select
        per_category.venue,
        per_category.category,
        per_category.possibly_top_n_papers,
        per_category.certainly_top_n_papers,
        rankability.reliability,
        rankability.reliability_with_one_more_review

    from per_category
    left join rankability
        on
            per_category.venue = rankability.venue
            and per_category.category = rankability.category

)

select * from final
