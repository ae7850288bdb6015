-- The related papers of each computed venue were computed from the papers' current texts: every
-- accepted paper has the text hash it was computed with, and no other paper was. A paper loaded
-- or edited after `paperrank related` ran is named here (run `paperrank related`, or `paperrank
-- rank`, which runs it).
{{ config(tags=['related']) }}

with

computed as (

    select * from {{ ref('int_related_computations') }}

),

inputs as (

    select * from {{ ref('stg_derived__related_inputs') }}

),

papers as (

    select * from {{ ref('int_related_paper_texts') }}

),

venues as (

    select venue from computed
    where part = 'related'

),

current_papers as (

    select papers.*
    from papers
    inner join venues
        on papers.venue = venues.venue

),

computed_papers as (

    select inputs.*
    from inputs
    inner join venues
        on inputs.venue = venues.venue

),

final as (

    select
        current_papers.text_hash as current_hash,
        computed_papers.text_hash as computed_hash,
        coalesce(current_papers.venue, computed_papers.venue) as venue,
        coalesce(current_papers.paper_id, computed_papers.paper_id) as paper_id

    from current_papers
    full outer join computed_papers
        on
            current_papers.venue = computed_papers.venue
            and current_papers.paper_id = computed_papers.paper_id
    where current_papers.text_hash is distinct from computed_papers.text_hash

)

select * from final
