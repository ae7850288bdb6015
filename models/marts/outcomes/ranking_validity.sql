{#- How well each score tracks the outcomes: one row per (venue, category or null for
    venue-wide, population, outcome, score), with the metric's value on the sample, its 95%
    interval, n, and the ceiling the reviews' reliability allows. The assembly of the validity
    models of models/intermediate/outcomes/:

    - int_validity_groups: the (venue, category, population, outcome) groups that can have a
      metric (both classes of a binary outcome, at least 3 papers for a correlation);
    - int_validity_sample_metrics: each metric on the sample (int_validity_sample_auc: AUC of
      accepted against rejected submissions, or of oral or spotlight against the other accepted
      papers; int_validity_sample_spearman: Spearman's correlation with the citation count),
      with its closed-form interval (DeLong's, Fisher's z);
    - int_validity_bootstrap_metrics: the seeded bootstrap's percentile interval;
    - int_validity_reliability: the reviews' reliability and the ceiling it allows.

    The interval is the bootstrap's (`resample`) or the closed form's (`closed_form`, where the
    resamples would not fit outcomes_row_budget), as macros/outcomes/outcome_method.sql chooses. -#}
{%- set score_columns = validity_score_columns() -%}
{%- set configured = outcome_settings().method -%}
{%- set method = outcome_method('validity') %}
-- Under `auto` only the method in force reads its model (the bootstrap or the closed form); the
-- bootstrap is a dependency whatever the setting, so that no setting changes what dbt parses,
-- and so is int_validity_scores, which outcome_method('validity') counts:
-- depends_on: {{ ref('int_validity_bootstrap_metrics') }}
-- depends_on: {{ ref('int_validity_scores') }}
-- noqa: disable=ST03

with

validity_groups as (

    select * from {{ ref('int_validity_groups') }}

),

sample_metrics as (

    select * from {{ ref('int_validity_sample_metrics') }}

),

{%- if configured != 'closed_form' %}

    bootstrap as (

        select * from {{ ref('int_validity_bootstrap_metrics') }}

    ),
{%- endif %}

reliability as (

    select * from {{ ref('int_validity_reliability') }}

),

score_names as (

    {%- for column in score_columns %}
        select {{ loop.index }} as score_number, '{{ column }}' as score
        {%- if not loop.last %}
            union all
        {%- endif %}
    {%- endfor %}

),

{%- if method == 'resample' %}

    intervals as (

        select
            sample_group,
            score_number,
            metric,
            ci_low,
            ci_high,
            replicates,
            'bootstrap' as interval_method

        from bootstrap

    ),
{%- else %}

    intervals as (

        select
            sample_group,
            score_number,
            metric,
            closed_low as ci_low,
            closed_high as ci_high,
            cast(null as bigint) as replicates,
            closed_method as interval_method

        from sample_metrics

    ),
{%- endif %}

summarized as (

    select
        sample_metrics.sample_group,
        sample_metrics.score_number,
        sample_metrics.metric,
        sample_metrics.value,
        sample_metrics.n,
        sample_metrics.n_positive,
        intervals.ci_low,
        intervals.ci_high,
        {%- if method == 'resample' %}
            -- a group none of whose replicates has a metric (both classes) has no interval
            coalesce(intervals.replicates, 0) as replicates,
            'bootstrap' as interval_method
        {%- else %}
            intervals.replicates,
            intervals.interval_method
        {%- endif %}

    from sample_metrics
    left join intervals
        on
            sample_metrics.sample_group = intervals.sample_group
            and sample_metrics.score_number = intervals.score_number
            and sample_metrics.metric = intervals.metric

),

final as (

    select
        validity_groups.venue,
        validity_groups.category,
        validity_groups.population,
        validity_groups.outcome,
        score_names.score,
        summarized.metric,
        summarized.value,
        summarized.n,
        summarized.n_positive,
        summarized.ci_low,
        summarized.ci_high,
        summarized.replicates,
        summarized.interval_method,
        reliability.reliability,
        reliability.ceiling,
        reliability.ceiling_note

    from summarized
    inner join validity_groups
        on summarized.sample_group = validity_groups.sample_group
    inner join score_names
        on summarized.score_number = score_names.score_number
    left join reliability
        on
            validity_groups.venue = reliability.venue
            and coalesce(validity_groups.category, '') = coalesce(reliability.category, '')
            and validity_groups.population = reliability.population
            and validity_groups.outcome = reliability.outcome
            and score_names.score = reliability.score
    where summarized.value is not null

)

select * from final
