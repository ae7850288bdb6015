with

source as (

    select * from {{ source('raw', 'papers') }}

),

renamed as (

    select
        paper_id,
        venue,
        title,
        abstract,
        primary_area,
        keywords,
        authors,
        status,
        is_accepted,
        forum_url,
        pdf_url,
        decision_tier,
        citations,
        citations_source,
        source as loaded_from,
        snapshot_at,
        loaded_at,
        lower(trim(primary_area)) as primary_area_key,
        {{ latex_to_text('title') }} as title_plain

    from source

)

select * from renamed
