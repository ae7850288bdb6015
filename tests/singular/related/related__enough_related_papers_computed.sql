-- Each computed venue's related papers were computed for at least the related_papers this
-- build keeps (a build asking for 10 from a computation of 5 would silently show 5).
{{ config(tags=['related']) }}

with

computed as (

    select * from {{ ref('int_related_computations') }}

),

final as (

    select
        venue,
        related_papers

    from computed
    where part = 'related' and related_papers < {{ var('related_papers') }}

)

select * from final
