-- category_top_n is exactly the is_top_n rows of paper_rankings (a killed build once left a
-- shortlist pointing at papers no longer ranked): the rows only one side has.
{{ config(tags=['marts_agree']) }}

with

top_n as (

    select * from {{ ref('category_top_n') }}

),

rankings as (

    select * from {{ ref('paper_rankings') }}

),

listed as (

    select
        venue,
        paper_id,
        category,
        category_rank,
        local_top_overall

    from top_n

),

shortlisted as (

    select
        venue,
        paper_id,
        category,
        category_rank,
        local_top_overall

    from rankings
    where is_top_n

),

only_listed as (

    select * from listed
    except all
    select * from shortlisted

),

only_shortlisted as (

    select * from shortlisted
    except all
    select * from listed

),

final as (

    select
        'only in category_top_n' as found,
        venue,
        paper_id,
        category,
        category_rank,
        local_top_overall
    from only_listed

    union all

    select
        'only in paper_rankings' as found,
        venue,
        paper_id,
        category,
        category_rank,
        local_top_overall
    from only_shortlisted

)

select * from final
