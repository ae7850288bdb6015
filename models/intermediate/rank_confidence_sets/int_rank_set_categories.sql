{#-
    Which path computes each ranked category's rank confidence sets (docs/rank-confidence-sets.md):

    - `exact`: the csranks computation with one normal draw per (paper, draw b), so papers x B
      draw rows. Categories are taken smallest first while their draw rows, added up, fit
      rank_sets_row_budget (a category too small for the scaled path is always exact);
    - `scaled`: every other category. Its draws are order statistics (a few rows per draw,
      whatever the category's size), its critical values are computed per cell of similar
      standard errors and its bounds count pairs by sorting: conservative (sets at worst a
      little wider, never narrower), with the same coverage guarantee.

    group_key numbers the categories (venue, category) for the rank-set macros.
-#}
{{ config(materialized="table") }}
{%- set settings = rank_sets_settings() %}

with

rankings as (

    select * from {{ ref('int_papers_ranked') }}

),

categories as (

    select
        venue,
        category,
        count(*) as category_size

    from rankings
    group by venue, category

),

keyed as (

    select
        venue,
        category,
        category_size,
        dense_rank() over (order by venue, category) as group_key,
        category_size * {{ settings.draws }} as exact_draw_rows

    from categories

),

-- draw rows of each category and of every category not larger (ties: by group_key)
budgeted as (

    select
        *,
        sum(exact_draw_rows) over (
            order by category_size, group_key rows between unbounded preceding and current row
        ) as cumulative_draw_rows

    from keyed

),

final as (

    select
        venue,
        category,
        group_key,
        category_size,
        exact_draw_rows,
        case
            when
                cumulative_draw_rows <= {{ settings.row_budget }}
                or category_size < {{ 2 * settings.candidates + 2 }}
                then 'exact'
            else 'scaled'
        end as rank_set_method

    from budgeted

)

select * from final
