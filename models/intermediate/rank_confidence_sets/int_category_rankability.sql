{#-
    How rankable each category is at all: the share of the composites' variance that is
    between papers rather than review noise, reliability = 1 - mean(se^2) / var(composite)
    (sample variance; floored at 0), with the se of int_normal_composite_errors (in the
    sample-variance form; it assumes papers independent given the category's
    standardisation). 1 means the spread of
    composites is all real difference; 0 means it is all noise. Also the mean review count,
    for reading it with the Spearman-Brown formula: the reliability with m reviews per paper
    instead of n is m r / (n + (m - n) r); `reliability_with_one_more_review` is that for
    m = n + 1. The variance and the mean square are order-free sums
    (macros/statistics/order_free_sum.sql), so they are the same on every build: var_samp and a
    plain avg of doubles moved in their last bits with the order rows arrived in. The
    composites of a category sum to about 0 (a weighted sum of its z-scores), so the sum-of-
    squares form loses nothing to cancellation.
-#}

with

errors as (

    select * from {{ ref('int_normal_composite_errors') }}

),

rankings as (

    select * from {{ ref('int_papers_ranked') }}

),

per_category as (

    select
        rankings.venue,
        rankings.category,
        count(*) as papers,
        avg(rankings.review_count) as mean_review_count,
        (
            {{ order_free_sum('rankings.local_top_overall * rankings.local_top_overall') }}
            - {{ order_free_sum('rankings.local_top_overall') }}
            * {{ order_free_sum('rankings.local_top_overall') }} / count(*)
        ) / nullif(count(*) - 1, 0) as composite_variance,
        {{ order_free_avg('errors.composite_se * errors.composite_se') }} as mean_squared_se

    from rankings
    inner join errors
        on rankings.paper_id = errors.paper_id
    group by rankings.venue, rankings.category

),

rated as (

    select
        *,
        case
            when composite_variance > 0
                then greatest(0.0, 1.0 - mean_squared_se / composite_variance)
        end as reliability

    from per_category

),

final as (

    select
        venue,
        category,
        papers,
        mean_review_count,
        composite_variance,
        mean_squared_se,
        reliability,
        (mean_review_count + 1) * reliability
        / (mean_review_count + reliability) as reliability_with_one_more_review

    from rated

)

select * from final
