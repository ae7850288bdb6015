{%- set venue = var('venue') -%}

with

papers as (

    select * from {{ ref('stg_raw__papers') }}

),

-- the hash paperrank.related.corpus.text_hash takes of each accepted paper's text (title,
-- abstract, keywords, one per line), to find related papers computed from other texts
hashed as (

    select
        venue,
        paper_id,
        md5(
            coalesce(title, '') || chr(10) || coalesce(abstract, '') || chr(10)
            || {{ texts_joined_or_empty('keywords', 'chr(10)') }}
        ) as text_hash

    from papers
    where
        is_accepted{% if venue is not none %}
            and venue = {{ sql_string(venue) }}{% endif %}

)

select * from hashed
