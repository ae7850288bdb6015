{#-
    The papers of the categories on the scaled rank-set path (int_rank_set_categories), with
    what that path needs: the paper's number within its category (category_item_number, in
    order of se, then paper_id: the draws pick partners by it, and one sort gives the cells and
    buckets too), its cell of standard errors (se_cell, one of rank_sets_se_cells equal shares
    of the category in se order: one marginal critical value per cell) and its bucket
    (se_bucket, one of rank_sets_se_buckets shares: the pair counts take every partner of a
    bucket at the bucket's largest se).

    Estimates, standard errors and their assumptions: int_rank_set_papers.
-#}
{{ config(materialized="table") }}
{%- set settings = rank_sets_settings() %}

with

papers as (

    select * from {{ ref('int_rank_set_papers') }}

),

ordered as (

    select
        venue,
        category,
        paper_id,
        category_rank,
        category_size,
        group_key,
        estimate,
        se,
        row_number() over (partition by group_key order by se, paper_id) as category_item_number

    from papers
    where rank_set_method = 'scaled'

),

final as (

    select
        *,
        1 + {{ integer_divide('(category_item_number - 1) * ' ~ settings.se_cells, 'category_size') }}
            as se_cell,
        1 + {{ integer_divide('(category_item_number - 1) * ' ~ settings.se_buckets, 'category_size') }}
            as se_bucket

    from ordered

)

select * from final
