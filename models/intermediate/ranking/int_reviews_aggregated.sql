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
        {%- for score in raw_score_columns() %}
            count({{ score }}) as {{ score }}_count,
        {%- endfor %}
        min(rating) as rating_min,
        max(rating) as rating_max

    from reviews
    group by paper_id

)

select * from aggregated
