with

reviews as (

    select * from {{ ref('stg_raw__reviews') }}

),

aggregated as (

    select
        paper_id,
        count(*) as review_count,
        {%- for signal in ranking_signals() %}
            {{ review_signal(signal) }} as {{ signal }},
        {%- endfor %}
        count(rating) as rating_count,
        min(rating) as rating_min,
        max(rating) as rating_max

    from reviews
    group by paper_id

)

select * from aggregated
