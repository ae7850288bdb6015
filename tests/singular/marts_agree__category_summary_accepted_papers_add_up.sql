-- category_summary's accepted papers add up, per venue, to the categorized accepted papers
-- (ranked or excluded with a category): the venues where they do not.
{{ config(tags=['marts_agree']) }}

with

summary as (

    select * from {{ ref('category_summary') }}

),

rankings as (

    select * from {{ ref('paper_rankings') }}

),

excluded_papers as (

    select * from {{ ref('excluded_papers') }}

),

categorized_papers as (

    select
        venue,
        category
    from rankings

    union all

    select
        venue,
        category
    from excluded_papers

),

categorized as (

    select
        venue,
        count(*) as categorized

    from categorized_papers
    where category is not null
    group by venue

),

summarized as (

    select
        venue,
        sum(accepted_papers) as summary_accepted

    from summary
    group by venue

),

final as (

    select
        summarized.venue,
        summarized.summary_accepted,
        categorized.categorized

    from summarized
    left join categorized
        on summarized.venue = categorized.venue
    where summarized.summary_accepted is distinct from categorized.categorized

)

select * from final
