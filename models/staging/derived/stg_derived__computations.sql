with

source as (

    select * from {{ source('derived', 'computations') }}

),

renamed as (

    select
        venue,
        part,
        taxonomy,
        label_model,
        input_key,
        method_key,
        related_papers,
        papers,
        result_rows,
        seconds,
        vector_seconds,
        computed_at

    from source

)

select * from renamed
