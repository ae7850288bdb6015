with

papers as (

    select * from {{ ref('int_papers_categorized') }}

),

rankings as (

    select * from {{ ref('paper_rankings') }}

),

taxonomies as (

    select * from {{ ref('taxonomies') }}

),

counted as (

    select
        venue,
        category,
        count(*) as accepted_papers,
        count(*) filter (where is_ranked) as ranked_papers,
        count(*) filter (where category_source = 'primary_area_override') as overridden_papers

    from papers
    where category is not null
    group by venue, category

),

scored as (

    select
        venue,
        category,
        -- order-free averages (macros/statistics/order_free_sum.sql): a plain avg of doubles
        -- moved in its last bits from build to build with the order rows arrived in
        {{ order_free_avg('rating_mean') }} as avg_rating_mean,
        {{ order_free_avg('contribution_mean') }} as avg_contribution_mean,
        max(local_top_overall) as best_local_top_overall

    from rankings
    group by venue, category

),

final as (

    select
        counted.venue,
        counted.category,
        taxonomies.slug as category_slug,
        taxonomies.is_ranked as is_category_ranked,
        counted.accepted_papers,
        counted.ranked_papers,
        counted.overridden_papers,
        least(counted.ranked_papers, {{ var('top_n') }}) as top_n_papers,
        counted.ranked_papers < {{ var('top_n') }} and taxonomies.is_ranked as is_smaller_than_top_n,
        scored.avg_rating_mean,
        scored.avg_contribution_mean,
        scored.best_local_top_overall

    from counted
    left join taxonomies
        on
            counted.category = taxonomies.category
            and taxonomies.taxonomy = {{ sql_string(var('taxonomy')) }}
    left join scored
        on
            counted.venue = scored.venue
            and counted.category = scored.category

)

select * from final
