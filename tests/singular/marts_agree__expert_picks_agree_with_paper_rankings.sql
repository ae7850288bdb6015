-- expert_picks show each picked paper's rank, shortlist place and score as paper_rankings has
-- them in the pick's venue (a paper of another venue is not ranked there): the picks that
-- disagree.
{{ config(tags=['marts_agree', 'picks']) }}

with

picks as (

    select * from {{ ref('expert_picks') }}

),

rankings as (

    select * from {{ ref('paper_rankings') }}

),

final as (

    select
        picks.venue,
        picks.paper_id,
        picks.selected_by,
        picks.category_rank,
        rankings.category_rank as rankings_rank,
        picks.is_top_n,
        rankings.is_top_n as rankings_is_top_n,
        picks.local_top_overall,
        rankings.local_top_overall as rankings_score

    from picks
    left join rankings
        on
            picks.venue = rankings.venue
            and picks.paper_id = rankings.paper_id
    where
        picks.is_ranked <> (rankings.paper_id is not null)
        or picks.category_rank is distinct from rankings.category_rank
        or picks.is_top_n <> coalesce(rankings.is_top_n, false)
        or picks.local_top_overall is distinct from rankings.local_top_overall

)

select * from final
