{#-
    The papers of the categories on the exact rank-set path (int_rank_set_categories: their
    draws fit rank_sets_row_budget), keyed for the rank-set macros: group_key = the category,
    item_number = the paper in paper_id order, item_key = paper_id (the draws' stream key).
    Estimates, standard errors and their assumptions: int_rank_set_papers.
-#}
{{ config(materialized="table") }}

with

papers as (

    select * from {{ ref('int_rank_set_papers') }}

),

final as (

    select
        venue,
        category,
        paper_id,
        category_rank,
        category_size,
        group_key,
        paper_id as item_key,
        estimate,
        se,
        row_number() over (order by paper_id) as item_number

    from papers
    where rank_set_method = 'exact'

)

select * from final
