{#-
    The papers of the categories on the scaled rank-set path (int_rank_set_categories), with
    what that path needs (macros/rank_sets/rank_set_scaled_estimates.sql): the paper's number
    within its category (category_item_number, in order of se, then paper_id: the draws pick
    partners by it, and one sort gives the cells and buckets too), its cell of standard errors
    (se_cell, one of rank_sets_se_cells equal shares of the category in se order: one marginal
    critical value per cell) and its bucket (se_bucket, one of rank_sets_se_buckets shares: the
    pair counts take every partner of a bucket at the bucket's largest se).

    Estimates, standard errors and their assumptions: int_rank_set_papers.
-#}
{{ config(materialized="table") }}
{%- set settings = rank_sets_settings() %}

with

papers as (

    select * from {{ ref('int_rank_set_papers') }}

),

scaled_papers as (

    select
        venue,
        category,
        paper_id,
        category_rank,
        category_size,
        group_key,
        estimate,
        se

    from papers
    where rank_set_method = 'scaled'

),

{{ rank_set_scaled_estimate_ctes('scaled', 'scaled_papers', 'paper_id', settings) }},

final as (

    select * from scaled

)

select * from final
