{#- Every ranked paper with integer keys, the one numbering the bootstrap and the weight
    scenarios join on: paper_number follows paper_id order (so it breaks ties as paper_id does)
    and category_number numbers the (venue, category) pairs. Only the columns the simulations
    need: the marts' long texts stay out of their big joins. -#}
{%- set signals = ranking_signals() -%}

with

rankings as (

    select * from {{ ref('int_papers_ranked') }}

),

numbered as (

    select
        venue,
        category,
        paper_id,
        review_count,
        category_size,
        category_rank,
        rating_mean,
        {%- for signal in signals %}
            z_{{ signal }},
        {%- endfor %}
        row_number() over (order by paper_id) as paper_number,
        dense_rank() over (order by venue, category) as category_number

    from rankings

)

select * from numbered
