{#- The papers of each validity group, numbered: one row per (venue, category, population,
    outcome) group and paper the outcome is defined for, with the group's number
    (sample_group), the paper's number within it (by paper_id), the group's size and the
    paper's outcome and scores (macros/outcomes/validity_score_columns.sql), so that the mart
    reads the scores without a join. Only groups that can have a metric are kept: both classes of a binary
    outcome, at least 3 papers for a correlation. The bootstrap (int_validity_samples) draws
    paper numbers, so the mart joins integers only; the closed form draws none, and the paper
    numbers (a sort of every group by paper_id, most of this model's time at scale) are null
    (macros/outcomes/outcome_method.sql). -#}
{{ config(materialized='table') }}
{%- set is_resample = outcome_method('validity') == 'resample' -%}
{%- set score_columns = validity_score_columns() %}

with

scores as (

    select * from {{ ref('int_validity_scores') }}

),

defined as (

    select
        venue,
        category,
        population,
        'accepted' as outcome,
        paper_id,
        outcome_accepted as positive,
        cast(null as double) as citations,
        {%- for column in score_columns %}
            {{ column }} {%- if not loop.last %},{% endif %}
        {%- endfor %}
    from scores
    where outcome_accepted is not null
    union all
    select
        venue,
        category,
        population,
        'top_tier' as outcome,
        paper_id,
        outcome_top_tier as positive,
        cast(null as double) as citations,
        {%- for column in score_columns %}
            {{ column }} {%- if not loop.last %},{% endif %}
        {%- endfor %}
    from scores
    where outcome_top_tier is not null
    union all
    select
        venue,
        category,
        population,
        'citations' as outcome,
        paper_id,
        cast(null as integer) as positive,
        cast(citations as double) as citations,
        {%- for column in score_columns %}
            {{ column }} {%- if not loop.last %},{% endif %}
        {%- endfor %}
    from scores
    where citations is not null

),

group_sizes as (

    select
        venue,
        category,
        population,
        outcome,
        count(*) as papers,
        min(positive) as lowest,
        max(positive) as highest

    from defined
    group by venue, category, population, outcome

),

kept as (

    select
        venue,
        category,
        population,
        outcome,
        papers as group_size,
        row_number() over (order by venue, category, population, outcome) as sample_group

    from group_sizes
    where (outcome = 'citations' and papers >= 3) or (lowest = 0 and highest = 1)

),

final as (

    select
        defined.venue,
        defined.category,
        defined.population,
        defined.outcome,
        kept.group_size,
        defined.paper_id,
        defined.positive,
        defined.citations,
        {%- for column in score_columns %}
            defined.{{ column }},
        {%- endfor %}
        kept.sample_group,
        {%- if is_resample %}
            row_number() over (
                partition by kept.sample_group order by defined.paper_id
            ) as paper_number
        {%- else %}
            cast(null as bigint) as paper_number
        {%- endif %}

    from defined
    inner join kept
        on
            defined.venue = kept.venue
            and coalesce(defined.category, '') = coalesce(kept.category, '')
            and defined.population = kept.population
            and defined.outcome = kept.outcome

)

select * from final
