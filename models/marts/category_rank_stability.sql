with

uncertainty as (

    select * from {{ ref('paper_rank_uncertainty') }}

),

rankability as (

    select * from {{ ref('int_category_rankability') }}

),

per_category as (

    select
        venue,
        category,
        count(*) as category_size,
        least(count(*), {{ var('top_n') }}) as top_n_papers,
        {{ order_free_sum('case when is_top_n then p_top_n else 0 end') }} as expected_top_n_overlap,
        {{ order_free_sum('case when is_top_n then p_top_n else 0 end') }}
        / least(count(*), {{ var('top_n') }})
            as expected_top_n_overlap_share,
        {{ order_free_sum('p_top_n * p_top_n') }} as expected_redraw_overlap,
        count(*) filter (where rank_band = 'secure') as secure_papers,
        count(*) filter (where rank_band = 'borderline') as borderline_papers,
        count(*) filter (where is_top_n and p_top_n < 0.5) as fragile_top_n_papers,
        {{ order_free_sum('p_top_n') }} as p_top_n_sum,
        any_value(uncertainty_method) as uncertainty_method,
        any_value(replicates) as replicates,
        count(*) filter (where is_possibly_top_n) as possibly_top_n_papers,
        count(*) filter (where is_certainly_top_n) as certainly_top_n_papers

    from uncertainty
    group by venue, category

),

final as (

    select
        per_category.*,
        rankability.reliability,
        rankability.reliability_with_one_more_review

    from per_category
    left join rankability
        on
            per_category.venue = rankability.venue
            and per_category.category = rankability.category

)

select * from final
