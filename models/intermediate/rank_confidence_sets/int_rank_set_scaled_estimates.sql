{#-
    The papers of the categories on the scaled rank-set path (int_rank_set_categories), with
    what that path needs: the paper's number within its category (category_item_number, in
    order of se, then paper_id: the draws pick partners by it, and one sort gives the cells and
    buckets too), its cell of standard errors (se_cell, one of rank_sets_se_cells equal shares
    of the category in se order: one marginal critical value per cell) and its bucket
    (se_bucket, one of rank_sets_se_buckets shares: the pair counts take every partner of a
    bucket at the bucket's largest se).

    Estimates and standard errors as on the exact path (int_rank_set_estimates), with the same
    assumptions.
-#}
{{ config(materialized="table") }}
{%- set settings = rank_sets_settings() %}

with

rankings as (

    select * from {{ ref('paper_rankings') }}

),

errors as (

    select * from {{ ref('int_normal_composite_errors') }}

),

categories as (

    select * from {{ ref('int_rank_set_categories') }}

),

ordered as (

    select
        rankings.venue,
        rankings.category,
        rankings.paper_id,
        rankings.category_rank,
        rankings.category_size,
        categories.group_key,
        rankings.local_top_overall as estimate,
        errors.composite_se as se,
        row_number() over (
            partition by categories.group_key order by errors.composite_se, rankings.paper_id
        ) as category_item_number

    from rankings
    inner join errors
        on rankings.paper_id = errors.paper_id
    inner join categories
        on
            rankings.venue = categories.venue
            and rankings.category = categories.category
    where categories.rank_set_method = 'scaled'

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
