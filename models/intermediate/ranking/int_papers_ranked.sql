{#- The article's ranking (README "What it does", steps 3 and 4): every ranked paper's signals,
    their z-scores within its venue and category, each weighted term, the composite
    local_top_overall, its rank and whether it is in the top-N, with the paper's title, authors,
    abstract and links (joined last, so that the rank's sort never carries them). A table, read by
    the mart paper_rankings (a view of it, so the ranking is written once) and by every extra's
    intermediate models (rank uncertainty, rank sets, outcomes): no intermediate model reads a
    mart. -#}
{{ config(materialized='table') }}
{%- set signals = ranking_signals() -%}

with

papers as (

    select * from {{ ref('int_papers_categorized') }}

),

paper_texts as (

    select * from {{ ref('stg_raw__papers') }}

),

weight_set as (

    select * from {{ ref('int_weight_set') }}

),

ranked_papers as (

    select
        venue,
        paper_id,
        category,
        category_slug,
        category_source,
        label_model,
        label_prompt_hash,
        label_confidence,
        label_rationale,
        review_count,
        {%- for signal in signals %}
            {{ signal }} {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from papers
    where is_ranked

),

-- exact per-category sums (see macros/statistics/zscore.sql): the z-scores come out bit-for-bit the
-- same whatever order the rows arrive in, so on every run and with any number of threads
category_sums as (

    select
        venue,
        category,
        {%- for signal in signals %}
            {{ zscore_sums(signal) }},
        {%- endfor %}
        count(*) as category_size,
        -- an integer key for the rank's window: sorting on two strings per row cost more than
        -- the rest of the rank (measured at 1M papers)
        row_number() over (order by venue, category) as category_key

    from ranked_papers
    group by venue, category

),

standardized as (

    select
        ranked_papers.*,
        {%- for signal in signals %}
            {{ zscore_from_sums('ranked_papers.' ~ signal, 'category_sums', signal) }} as z_{{ signal }},
        {%- endfor %}
        category_sums.category_size,
        category_sums.category_key

    from ranked_papers
    inner join category_sums
        on
            ranked_papers.venue = category_sums.venue
            and ranked_papers.category = category_sums.category

),

weighted as (

    select
        standardized.*,
        {%- for signal in signals %}
            weight_set.w_{{ signal }} * standardized.z_{{ signal }} as {{ signal }}_term
            {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from standardized
    cross join weight_set

),

scored as (

    select
        *,
        {% for signal in signals -%}
            {{ signal }}_term {%- if not loop.last %} + {% endif %}
        {%- endfor %} as local_top_overall

    from weighted

),

-- the rank's sort carries only its keys, and joins back: a sort that carries every column of
-- the row took twice as long at 1M papers
category_ranks as (

    select
        paper_id,
        -- bigint on both engines (Spark's row_number is an int): the mart's contract
        cast(row_number() over (
            partition by category_key
            order by {{ ranking_order('local_top_overall') }}
        ) as bigint) as category_rank

    from scored

),

ranked as (

    select
        scored.*,
        category_ranks.category_rank

    from scored
    inner join category_ranks
        on scored.paper_id = category_ranks.paper_id

),

-- titles, authors, abstracts, links, primary areas and statuses join last, so that neither the
-- sort above nor the rows it joins back carry them
final as (

    select
        ranked.venue,
        ranked.paper_id,
        paper_texts.title,
        paper_texts.title_plain,
        paper_texts.authors,
        paper_texts.abstract,
        {{ texts_semicolon_joined_or_null('paper_texts.keywords') }} as keywords,
        ranked.category,
        ranked.category_slug,
        ranked.category_source,
        ranked.label_model,
        ranked.label_prompt_hash,
        ranked.label_confidence,
        ranked.label_rationale,
        paper_texts.primary_area,
        paper_texts.status,
        paper_texts.forum_url,
        paper_texts.pdf_url,
        ranked.review_count,
        {%- for signal in signals %}
            ranked.{{ signal }},
        {%- endfor %}
        {%- for signal in signals %}
            ranked.z_{{ signal }},
        {%- endfor %}
        ranked.category_size,
        {%- for signal in signals %}
            ranked.{{ signal }}_term,
        {%- endfor %}
        ranked.local_top_overall,
        ranked.category_rank,
        ranked.category_rank <= {{ var('top_n') }} as is_top_n

    from ranked
    inner join paper_texts
        on ranked.paper_id = paper_texts.paper_id

)

select * from final
