-- category_summary's ranked and shortlisted counts match paper_rankings and category_top_n:
-- the categories where they differ (or that only one side has).
{{ config(tags=['marts_agree']) }}

with

summary as (

    select * from {{ ref('category_summary') }}

),

rankings as (

    select * from {{ ref('paper_rankings') }}

),

ranked as (

    select
        venue,
        category,
        count(*) as ranked_papers,
        count(case when is_top_n then 1 end) as top_n_papers

    from rankings
    group by venue, category

),

summarized as (

    select * from summary
    where ranked_papers > 0

),

final as (

    select
        summarized.ranked_papers as summary_ranked,
        ranked.ranked_papers as rankings_ranked,
        summarized.top_n_papers as summary_top_n,
        ranked.top_n_papers as rankings_top_n,
        coalesce(summarized.venue, ranked.venue) as venue,
        coalesce(summarized.category, ranked.category) as category

    from summarized
    full outer join ranked
        on
            summarized.venue = ranked.venue
            and summarized.category = ranked.category
    where
        summarized.ranked_papers is distinct from ranked.ranked_papers
        or summarized.top_n_papers is distinct from ranked.top_n_papers

)

select * from final
