{#-
    The scaled path's parametric bootstrap draws (macros/rank_sets/rank_set_scaled_draws.sql):
    per (category, draw b = 1..rank_sets_draws) the K highest and K lowest of the category's
    standard normal draws with the papers they belong to, the largest |u| of the others and the
    own draw of a paper whose marginal statistic is computed. A few rows per draw whatever the
    category's size. Its own model, as random draws are in this project, so the critical values
    read fixed numbers.
-#}
{{ config(materialized='table') }}
{%- set settings = rank_sets_settings() %}

with

categories as (

    select * from {{ ref('int_rank_set_categories') }}

),

scaled_categories as (

    select
        group_key,
        category_size as group_size,
        concat(venue, '/', category) as group_stream_key

    from categories
    where rank_set_method = 'scaled'

),

{%- if rank_set_scaled_path_used(ref('int_rank_set_categories')) %}

    {{ rank_set_scaled_draw_ctes('draws', 'scaled_categories', settings) }},

    final as (

        select * from draws

    )
{%- else %}

    -- no category takes the scaled path: the same columns, no rows
    final as (

        select
            group_key,
            cast(0 as bigint) as draw,
            cast(0 as double) as u_self,
            cast(0 as double) as outside_max,
        {%- for slot in range(1, 2 * settings.candidates + 1) %}
            cast(0 as bigint) as candidate_item_{{ slot }},
            cast(0 as double) as candidate_u_{{ slot }}{{ ',' if not loop.last }}
        {%- endfor %}

        from scaled_categories

    )
{%- endif %}

select * from final
