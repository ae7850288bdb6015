with

selections as (

    select * from {{ ref('expert_selections') }}

),

rankings as (

    select * from {{ ref('paper_rankings') }}

),

papers as (

    select * from {{ ref('int_papers_categorized') }}

),

paper_texts as (

    select * from {{ ref('stg_raw__papers') }}

),

final as (

    select
        selections.paper_id,
        selections.category as selected_category,
        selections.selected_by,
        selections.note,
        paper_texts.title,
        papers.category as paper_category,
        rankings.category_rank,
        rankings.category_size,
        rankings.local_top_overall,
        rankings.paper_id is not null as is_ranked,
        coalesce(rankings.is_top_n, false) as is_in_top_n,
        coalesce(papers.category = selections.category, false) as is_category_match,
        case
            when papers.paper_id is null then 'paper is not an accepted paper of the warehouse'
            when rankings.paper_id is null then 'paper is not ranked'
            when papers.category <> selections.category
                then 'paper is ranked in ' || papers.category || ', not ' || selections.category
            when not rankings.is_top_n
                then
                    'paper is ranked ' || rankings.category_rank || ', outside the top '
                    || {{ var('top_n') }}
        end as flag_reason,
        flag_reason is not null as is_flagged

    from selections
    left join papers
        on selections.paper_id = papers.paper_id
    left join paper_texts
        on papers.paper_id = paper_texts.paper_id
    left join rankings
        on selections.paper_id = rankings.paper_id

)

select * from final
