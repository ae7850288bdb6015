{#- Every pick carries the venue it was made in (the seed's venue column), and is checked
    against that venue's papers only: a venue's page reads `where venue = <its venue>` and never
    shows another venue's picks, and a paper of another venue is flagged, not matched. A build
    of one venue (var venue) holds that venue's picks; the seed keeps every venue's. -#}
{%- set venue = var('venue') -%}

with

selections as (

    select * from {{ ref('expert_selections') }}
    {%- if venue is not none %}
        where venue = {{ sql_string(venue) }}
    {%- endif %}

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

excluded as (

    select * from {{ ref('excluded_papers') }}

),

counted_selections as (

    select
        *,
        -- the seed is unique per (venue, selected_by, paper_id), so this counts experts
        count(*) over (partition by venue, paper_id) as expert_count

    from selections

),

final as (

    select
        counted_selections.venue,
        counted_selections.paper_id,
        counted_selections.selected_by,
        counted_selections.category as selected_category,
        counted_selections.note,
        counted_selections.expert_count,
        paper_texts.title,
        paper_texts.authors,
        paper_texts.abstract,
        papers.label_rationale,
        papers.category as paper_category,
        rankings.category_rank,
        rankings.category_size,
        rankings.local_top_overall,
        rankings.paper_id is not null as is_ranked,
        coalesce(rankings.is_top_n, false) as is_top_n,
        coalesce(papers.category = counted_selections.category, false) as is_category_match,
        excluded.exclusion_reason,
        case
            when papers.paper_id is null
                then 'paper is not an accepted paper of ' || counted_selections.venue || ' in the warehouse'
            when rankings.paper_id is null
                then 'paper is not ranked: ' || coalesce(excluded.exclusion_detail, 'no reason recorded')
            when papers.category <> counted_selections.category
                then 'paper is ranked in ' || papers.category || ', not ' || counted_selections.category
            when not rankings.is_top_n
                then
                    'paper is ranked ' || rankings.category_rank || ', outside the top '
                    || {{ var('top_n') }}
        end as flag_reason,
        flag_reason is not null as is_flagged

    from counted_selections
    left join papers
        on
            counted_selections.venue = papers.venue
            and counted_selections.paper_id = papers.paper_id
    left join paper_texts
        on papers.paper_id = paper_texts.paper_id
    left join rankings
        on
            counted_selections.venue = rankings.venue
            and counted_selections.paper_id = rankings.paper_id
    left join excluded
        on
            counted_selections.venue = excluded.venue
            and counted_selections.paper_id = excluded.paper_id

)

select * from final
