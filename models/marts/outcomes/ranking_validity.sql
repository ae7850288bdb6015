{#- How well each score tracks the outcomes: one row per (venue, category or null for
    venue-wide, population, outcome, score), with the metric's value on the sample, its 95%
    interval, n, and the ceiling the reviews' reliability allows (int_validity_reliability).

    - accepted (all_submissions): AUC of accepted against rejected submissions (withdrawn and
      undecided left out);
    - top_tier (accepted): AUC of oral or spotlight against the other accepted papers;
    - citations (both): Spearman correlation with the citation count.

    AUC is the Mann-Whitney statistic, ties counted half: the share of (positive, negative) pairs
    the score puts in the right order. Spearman is Pearson's correlation of the average ranks
    (ties share their mean rank). A group whose outcome has one class only, or fewer than 3
    papers, has no row (int_validity_groups).

    The value is computed once, on the sample (the `point_` CTEs). The interval comes from one of
    two methods (macros/outcomes/outcome_method.sql):
    - `resample`: the seeded bootstrap's percentiles (int_validity_bootstrap_metrics, over the
      resamples of int_validity_samples);
    - `closed_form`, where the resamples would not fit outcomes_row_budget: DeLong's variance
      of the AUC (the variances of the positives' and the negatives' placement values, each
      over its class size), value -/+ 1.96 se clipped to [0, 1]; Fisher's z for Spearman with
      Bonett and Wright's variance (1 + rho^2 / 2) / (n - 3), tanh(atanh(rho) -/+ 1.96 se). -#}
{%- set score_columns = validity_score_columns() -%}
{%- set z975 = 1.959963984540054 -%}
{%- set configured = outcome_settings().method -%}
{%- set method = outcome_method('validity') %}
-- Under `auto` only the method in force reads its CTEs (the bootstrap or the closed form); the
-- bootstrap is a dependency whatever the setting, so that no setting changes what dbt parses:
-- depends_on: {{ ref('int_validity_bootstrap_metrics') }}
-- noqa: disable=ST03

with

validity_groups as (

    select * from {{ ref('int_validity_groups') }}

),

{%- if configured != 'closed_form' %}

    bootstrap as (

        select * from {{ ref('int_validity_bootstrap_metrics') }}

    ),
{%- endif %}

scores as (

    select * from {{ ref('int_validity_scores') }}

),

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

-- each group's papers with their outcome and scores (macros/outcomes/validity_outcome_rows.sql)
group_scores as (

    select
        sample_group,
        paper_id,
        positive,
        citations,
        {%- for column in score_columns %}
            {{ column }} {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from ({{ validity_outcome_rows('scores', score_columns, groups='validity_groups') }}) as members

),

-- AUC on the sample: positives and negatives per distinct score value, the negatives below
-- and the positives above each value
point_binary_values as (

    {%- for column in score_columns %}
        select
            sample_group,
            {{ loop.index }} as score_number,
            {{ column }} as score_value,
            sum(positive) as positives,
            sum(1 - positive) as negatives
        from group_scores
        where positive is not null and {{ column }} is not null
        group by sample_group, {{ column }}
        {%- if not loop.last %}
            union all
        {%- endif %}
    {%- endfor %}

),

-- each class's size per group and score (joined, not windowed: one ordered window pass only)
point_binary_classes as (

    select
        sample_group,
        score_number,
        sum(positives) as class_positives,
        sum(negatives) as class_negatives

    from point_binary_values
    group by sample_group, score_number

),

point_binary_pairs as (

    select
        point_binary_values.sample_group,
        point_binary_values.score_number,
        point_binary_values.positives,
        point_binary_values.negatives,
        point_binary_classes.class_positives,
        point_binary_classes.class_negatives,
        sum(point_binary_values.negatives) over (
            partition by point_binary_values.sample_group, point_binary_values.score_number
            order by point_binary_values.score_value
        ) - point_binary_values.negatives as negatives_below,
        point_binary_classes.class_positives - sum(point_binary_values.positives) over (
            partition by point_binary_values.sample_group, point_binary_values.score_number
            order by point_binary_values.score_value
        ) as positives_above

    from point_binary_values
    inner join point_binary_classes
        on
            point_binary_values.sample_group = point_binary_classes.sample_group
            and point_binary_values.score_number = point_binary_classes.score_number

),

-- each class's placement values (a positive's share of negatives below it, ties half; a
-- negative's share of positives above it): their means are the AUC, their variances DeLong's
point_binary_sums as (

    select
        sample_group,
        score_number,
        cast(max(class_positives + class_negatives) as bigint) as n,
        cast(max(class_positives) as bigint) as n_positive,
        cast(max(class_positives) as double) as m,
        cast(max(class_negatives) as double) as k,
        cast(sum(positives * (negatives_below + 0.5 * negatives)) as double)
        / (max(class_positives) * max(class_negatives)) as value,  -- noqa: RF04
        sum(positives * power((negatives_below + 0.5 * negatives) / class_negatives, 2)) as positive_squares,
        sum(negatives * power((positives_above + 0.5 * positives) / class_positives, 2)) as negative_squares

    from point_binary_pairs
    group by sample_group, score_number
    having max(class_positives) > 0 and max(class_negatives) > 0

),

point_binary as (

    select
        sample_group,
        score_number,
        'auc' as metric,
        value,
        n,
        n_positive,
        sqrt(
            (positive_squares - m * value * value) / nullif(m - 1, 0) / m
            + (negative_squares - k * value * value) / nullif(k - 1, 0) / k
        ) as delong_se

    from point_binary_sums

),

-- Spearman on the sample: Pearson's correlation of the average ranks (the papers below a value,
-- plus half of its ties and a half). A citation count's rank, per score, counts only the papers
-- whose score is not null: from the group's few distinct citation counts, joined back once
point_citation_counts as (

    select
        sample_group,
        citations,
        {%- for column in score_columns %}
            count({{ column }}) as papers_{{ loop.index }} {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from group_scores
    where positive is null
    group by sample_group, citations

),

point_citation_ranks as (

    select
        sample_group,
        citations,
        {%- for column in score_columns %}
            sum(papers_{{ loop.index }}) over (partition by sample_group order by citations)
            - (papers_{{ loop.index }} - 1) / 2.0 as citation_rank_{{ loop.index }}
            {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from point_citation_counts

),

point_citation_scores as (

    {%- for column in score_columns %}
        select
            group_scores.sample_group,
            {{ loop.index }} as score_number,
            group_scores.{{ column }} as score_value,
            point_citation_ranks.citation_rank_{{ loop.index }} as citation_rank
        from group_scores
        inner join point_citation_ranks
            on
                group_scores.sample_group = point_citation_ranks.sample_group
                and group_scores.citations = point_citation_ranks.citations
        where group_scores.positive is null and group_scores.{{ column }} is not null
        {%- if not loop.last %}
            union all
        {%- endif %}
    {%- endfor %}

),

-- a score value's rank is the same for all its ties: sum the citation ranks per value, then
-- each value's average rank from the running count
point_score_values as (

    select
        sample_group,
        score_number,
        score_value,
        count(*) as papers,
        sum(citation_rank) as sum_y,
        sum(citation_rank * citation_rank) as sum_yy

    from point_citation_scores
    group by sample_group, score_number, score_value

),

point_score_ranks as (

    select
        sample_group,
        score_number,
        papers,
        sum_y,
        sum_yy,
        sum(papers) over (
            partition by sample_group, score_number order by score_value
        ) - (papers - 1) / 2.0 as score_rank

    from point_score_values

),

point_rank_sums as (

    select
        sample_group,
        score_number,
        cast(sum(papers) as double) as n,
        sum(papers * score_rank) as sx,
        sum(sum_y) as sy,
        sum(papers * score_rank * score_rank) as sxx,
        sum(sum_yy) as syy,
        sum(score_rank * sum_y) as sxy

    from point_score_ranks
    group by sample_group, score_number
    having sum(papers) >= 3

),

point_rank as (

    select
        sample_group,
        score_number,
        'spearman' as metric,
        cast(null as bigint) as n_positive,
        cast(n as bigint) as n,
        (sxy - sx * sy / n)
        / sqrt(nullif((sxx - sx * sx / n) * (syy - sy * sy / n), 0)) as value  -- noqa: RF04

    from point_rank_sums

),

point_metrics as (

    select
        sample_group,
        score_number,
        metric,
        value,
        n,
        n_positive,
        greatest(0.0, value - {{ z975 }} * delong_se) as closed_low,
        least(1.0, value + {{ z975 }} * delong_se) as closed_high,
        'delong' as closed_method

    from point_binary
    union all
    select
        sample_group,
        score_number,
        metric,
        value,
        n,
        n_positive,
        case
            when n > 3 and abs(value) < 1
                then tanh(atanh(value) - {{ z975 }} * sqrt((1 + value * value / 2) / (n - 3)))
        end as closed_low,
        case
            when n > 3 and abs(value) < 1
                then tanh(atanh(value) + {{ z975 }} * sqrt((1 + value * value / 2) / (n - 3)))
        end as closed_high,
        'fisher_z' as closed_method

    from point_rank

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

        from point_metrics

    ),
{%- endif %}

summarized as (

    select
        point_metrics.sample_group,
        point_metrics.score_number,
        point_metrics.metric,
        point_metrics.value,
        point_metrics.n,
        point_metrics.n_positive,
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

    from point_metrics
    left join intervals
        on
            point_metrics.sample_group = intervals.sample_group
            and point_metrics.score_number = intervals.score_number
            and point_metrics.metric = intervals.metric

),

group_names as (

    select
        sample_group,
        venue,
        category,
        population,
        outcome
    from validity_groups

),

final as (

    select
        group_names.venue,
        group_names.category,
        group_names.population,
        group_names.outcome,
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
    inner join group_names
        on summarized.sample_group = group_names.sample_group
    inner join score_names
        on summarized.score_number = score_names.score_number
    left join reliability
        on
            group_names.venue = reliability.venue
            and coalesce(group_names.category, '') = coalesce(reliability.category, '')
            and group_names.population = reliability.population
            and group_names.outcome = reliability.outcome
            and score_names.score = reliability.score
    where summarized.value is not null

)

select * from final
