{#- The article's ranking as published: int_papers_ranked, every ranked paper with its texts,
    signals, z-scores, terms, composite and rank. A view on DuckDB (the ranking is written once,
    in int_papers_ranked; publishing copies it into a table), a table on Spark (whose published
    marts are the Parquet files of its tables). -#}

with

rankings as (

    select * from {{ ref('int_papers_ranked') }}

),

final as (

    select * from rankings

)

select * from final
