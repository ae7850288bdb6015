with

uncertainty as (

    select * from {{ ref('paper_rank_uncertainty') }}

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
        any_value(replicates) as replicates

    from uncertainty
    group by venue, category

),

final as (

    select * from per_category

)

select * from final
