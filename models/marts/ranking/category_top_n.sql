with

rankings as (

    select * from {{ ref('paper_rankings') }}

),

final as (

    select * from rankings
    where is_top_n

)

select * from final
