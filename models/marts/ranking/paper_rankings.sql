{#- The article's ranking as published: every ranked paper of int_papers_ranked with its title,
    plain title, authors, abstract, keywords and links. The one table of the ranking written with
    the papers' texts: int_papers_ranked, which every extra reads, holds the numbers alone, and
    the texts join here, last, so that no sort of the ranking ever carries them. -#}
{%- set signals = ranking_signals() -%}

with

rankings as (

    select * from {{ ref('int_papers_ranked') }}

),

papers as (

    select * from {{ ref('stg_raw__papers') }}

),

final as (

    select
        rankings.venue,
        rankings.paper_id,
        papers.title,
        papers.title_plain,
        papers.authors,
        papers.abstract,
        {{ texts_semicolon_joined_or_null('papers.keywords') }} as keywords,
        rankings.category,
        rankings.category_slug,
        rankings.category_source,
        rankings.label_model,
        rankings.label_prompt_hash,
        rankings.label_confidence,
        rankings.label_rationale,
        rankings.primary_area,
        rankings.status,
        papers.forum_url,
        papers.pdf_url,
        rankings.review_count,
        {%- for signal in signals %}
            rankings.{{ signal }},
        {%- endfor %}
        {%- for signal in signals %}
            rankings.z_{{ signal }},
        {%- endfor %}
        rankings.category_size,
        {%- for signal in signals %}
            rankings.{{ signal }}_term,
        {%- endfor %}
        rankings.local_top_overall,
        rankings.category_rank,
        rankings.is_top_n

    from rankings
    inner join papers
        on rankings.paper_id = papers.paper_id

)

select * from final
