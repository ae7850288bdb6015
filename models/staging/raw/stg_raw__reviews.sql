with

source as (

    select * from {{ source('raw', 'reviews') }}

),

renamed as (

    select
        review_id,
        paper_id,
        reviewer,
        {%- for column in raw_score_columns() %}
            {{ column }},
        {%- endfor %}
        source as loaded_from,
        snapshot_at,
        loaded_at

    from source

)

select * from renamed
