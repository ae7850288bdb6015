{#- Which papers, with which outcome and scores, each validity group holds: one row per group
    and paper, with `positive` (1/0) for a binary outcome or `citations` for the correlation
    (the one rule of macros/outcomes/validity_outcome_rows.sql), and every score the mart tests.
    The sample's metrics (int_validity_sample_auc, int_validity_sample_spearman) read it. -#}
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
        positive,
        citations,
        {%- for column in score_columns %}
            {{ column }} {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from ({{ validity_outcome_rows('scores', score_columns, groups='validity_groups') }}) as members

)

select * from final
