{#- The papers of each validity group (int_validity_groups), numbered 1..group_size by
    paper_id, with the paper's outcome and scores: the bootstrap draws paper numbers
    (int_validity_samples), so its resamples are integers only, and int_validity_bootstrap_metrics
    reads each drawn paper's values here. One row per group and paper.
    Only the bootstrap needs it: empty when the closed form is in force
    (outcomes_method closed_form, or `auto` choosing it) (macros/outcomes/outcome_method.sql). -#}
{{ config(materialized='table') }}
{%- set is_resample = outcome_method('validity') == 'resample' -%}
{%- set score_columns = validity_score_columns() %}

with

scores as (

    select * from {{ ref('int_validity_scores') }}

),

validity_groups as (

    select * from {{ ref('int_validity_groups') }}

),

final as (

    select
        sample_group,
        paper_id,
        row_number() over (partition by sample_group order by paper_id) as paper_number,
        positive,
        citations,
        {%- for column in score_columns %}
            {{ column }} {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from ({{ validity_outcome_rows('scores', score_columns, groups='validity_groups') }}) as members
    where {{ 'true' if is_resample else 'false' }}

)

select * from final
