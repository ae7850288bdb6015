{#- The article's ranking as published: int_papers_ranked (every number of the ranking) with
    each paper's title, authors, abstract and links, joined last so that the ranking's sort
    never carries them. -#}
{%- set signals = ranking_signals() -%}

with

rankings as (

    select * from {{ ref('int_papers_ranked') }}

),

paper_texts as (

    select * from {{ ref('stg_raw__papers') }}

),

final as (

    select
        rankings.venue,
        rankings.paper_id,
        paper_texts.title,
        paper_texts.title_plain,
        paper_texts.authors,
        paper_texts.abstract,
        rankings.category,
        rankings.category_slug,
        rankings.category_source,
        rankings.label_model,
        rankings.label_prompt_hash,
        rankings.label_confidence,
        rankings.label_rationale,
        rankings.primary_area,
        rankings.status,
        paper_texts.forum_url,
        paper_texts.pdf_url,
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
    inner join paper_texts
        on rankings.paper_id = paper_texts.paper_id

)

select * from final
