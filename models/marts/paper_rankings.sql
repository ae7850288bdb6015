{%- set signals = ranking_signals() -%}
{%- set category_window = 'venue, category' -%}

with

papers as (

    select * from {{ ref('int_papers_categorized') }}

),

signals as (

    select * from {{ ref('int_reviews_aggregated') }}

),

weights as (

    select * from {{ ref('composite_weights') }}

),

weight_set as (

    select
        {%- for signal in signals %}
            coalesce(sum(weight) filter (where signal = '{{ signal }}'), 0) as w_{{ signal }},
        {%- endfor %}
        count(*) as weight_count

    from weights
    where weight_set = {{ sql_string(var('weight_set')) }}

),

ranked_papers as (

    select
        papers.venue,
        papers.paper_id,
        papers.title,
        papers.authors,
        papers.abstract,
        papers.category,
        papers.category_slug,
        papers.category_source,
        papers.label_model,
        papers.label_prompt_hash,
        papers.label_confidence,
        papers.label_rationale,
        papers.primary_area,
        papers.status,
        papers.forum_url,
        papers.pdf_url,
        signals.review_count,
        {%- for signal in signals %}
            signals.{{ signal }} {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from papers
    inner join signals
        on papers.paper_id = signals.paper_id
    where papers.is_ranked

),

standardized as (

    select
        *,
        {%- for signal in signals %}
            {{ zscore(signal, category_window, 'paper_id') }} as z_{{ signal }},
        {%- endfor %}
        count(*) over (partition by {{ category_window }}) as category_size

    from ranked_papers

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

final as (

    select
        *,
        -- rounded so that papers with the same scores in another review order (which move
        -- the composite in the 16th digit) tie, and the documented tie-breakers decide
        row_number() over (
            partition by {{ category_window }}
            order by round(local_top_overall, 12) desc, rating_mean desc nulls last, paper_id asc
        ) as category_rank,
        category_rank <= {{ var('top_n') }} as is_top_n

    from scored

)

select * from final
