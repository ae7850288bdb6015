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
    - `resample`: the seeded bootstrap, percentiles over the replicates of int_validity_samples
      (the `replicate_` CTEs; they are joined on integers only: each paper's score and citation
      count become their dense ranks within the group first);
    - `closed_form`, where the resamples would not fit outcomes_row_budget: DeLong's variance
      of the AUC (the variances of the positives' and the negatives' placement values, each
      over its class size), value -/+ 1.96 se clipped to [0, 1]; Fisher's z for Spearman with
      Bonett and Wright's variance (1 + rho^2 / 2) / (n - 3), tanh(atanh(rho) -/+ 1.96 se). -#}
{%- set score_columns = validity_score_columns() -%}
{#- one integer per (sample group, score, replicate): the windows partition by it -#}
{%- set replicate_span = 16777216 -%}
{%- set score_span = 16 -%}
{%- set z975 = 1.959963984540054 -%}
{%- set configured = outcome_settings().method -%}
{%- set method = outcome_method('validity') %}
-- Under `auto` only the method in force reads its CTEs (the replicates or the closed form):
-- noqa: disable=ST03

with

validity_groups as (

    select * from {{ ref('int_validity_groups') }}

),

{%- if configured != 'closed_form' %}

    samples as (

        select * from {{ ref('int_validity_samples') }}

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

-- each group paper with its scores (int_validity_groups carries them)
group_scores as (

    select
        sample_group,
        positive,
        citations,
        {%- for column in score_columns %}
            {{ column }} {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from validity_groups

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

point_binary_pairs as (

    select
        sample_group,
        score_number,
        positives,
        negatives,
        sum(negatives) over (
            partition by sample_group, score_number order by score_value
        ) - negatives as negatives_below,
        sum(positives) over (partition by sample_group, score_number)
        - sum(positives) over (partition by sample_group, score_number order by score_value)
            as positives_above,
        sum(positives) over (partition by sample_group, score_number) as class_positives,
        sum(negatives) over (partition by sample_group, score_number) as class_negatives

    from point_binary_values

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

-- Spearman on the sample: the average rank of each distinct score value and citation count
-- (the papers up to it, less half of its own ties, plus a half), then Pearson's correlation
point_citation_scores as (

    {%- for column in score_columns %}
        select
            sample_group,
            {{ loop.index }} as score_number,
            {{ column }} as score_value,
            citations
        from group_scores
        where positive is null and {{ column }} is not null
        {%- if not loop.last %}
            union all
        {%- endif %}
    {%- endfor %}

),

point_score_ranks as (

    select
        sample_group,
        score_number,
        score_value,
        sum(count(*)) over (
            partition by sample_group, score_number order by score_value
        ) - (count(*) - 1) / 2.0 as score_rank

    from point_citation_scores
    group by sample_group, score_number, score_value

),

point_citation_ranks as (

    select
        sample_group,
        score_number,
        citations,
        sum(count(*)) over (
            partition by sample_group, score_number order by citations
        ) - (count(*) - 1) / 2.0 as citation_rank

    from point_citation_scores
    group by sample_group, score_number, citations

),

point_rank_sums as (

    select
        point_citation_scores.sample_group,
        point_citation_scores.score_number,
        cast(count(*) as double) as n,
        sum(point_score_ranks.score_rank) as sx,
        sum(point_citation_ranks.citation_rank) as sy,
        sum(point_score_ranks.score_rank * point_score_ranks.score_rank) as sxx,
        sum(point_citation_ranks.citation_rank * point_citation_ranks.citation_rank) as syy,
        sum(point_score_ranks.score_rank * point_citation_ranks.citation_rank) as sxy

    from point_citation_scores
    inner join point_score_ranks
        on
            point_citation_scores.sample_group = point_score_ranks.sample_group
            and point_citation_scores.score_number = point_score_ranks.score_number
            and point_citation_scores.score_value = point_score_ranks.score_value
    inner join point_citation_ranks
        on
            point_citation_scores.sample_group = point_citation_ranks.sample_group
            and point_citation_scores.score_number = point_citation_ranks.score_number
            and point_citation_scores.citations = point_citation_ranks.citations
    group by point_citation_scores.sample_group, point_citation_scores.score_number
    having count(*) >= 3

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

    replicate_long_scores as (

        {%- for column in score_columns %}
            select
                venue, category, population, paper_id,
                {{ loop.index }} as score_number,
                {{ column }} as score_value
            from scores
            where {{ column }} is not null
            {%- if not loop.last %}
                union all
            {%- endif %}
        {%- endfor %}

    ),

    -- each paper's score (and citation count) as its dense rank within the group and score
    replicate_paper_values as (

        select
            validity_groups.sample_group,
            validity_groups.paper_number,
            replicate_long_scores.score_number,
            validity_groups.positive,
            dense_rank() over (
                partition by validity_groups.sample_group, replicate_long_scores.score_number
                order by replicate_long_scores.score_value
            ) as value_rank,
            dense_rank() over (
                partition by validity_groups.sample_group, replicate_long_scores.score_number
                order by validity_groups.citations
            ) as citation_rank

        from validity_groups
        inner join replicate_long_scores
            on
                validity_groups.paper_id = replicate_long_scores.paper_id
                and validity_groups.venue = replicate_long_scores.venue
                and coalesce(validity_groups.category, '') = coalesce(replicate_long_scores.category, '')
                and validity_groups.population = replicate_long_scores.population

    ),

    -- a replicate draws a paper 0, 1 or more times: its weight in that replicate
    replicate_sample_weights as (

        select
            sample_group,
            replicate,
            paper_number,
            count(*) as weight
        from samples
        where replicate > 0
        group by sample_group, replicate, paper_number

    ),

    replicate_drawn as (

        select
            (
                replicate_sample_weights.sample_group * {{ score_span }}
                + replicate_paper_values.score_number
            ) * {{ replicate_span }}
            + replicate_sample_weights.replicate as partition_key,
            replicate_sample_weights.weight,
            replicate_paper_values.value_rank,
            replicate_paper_values.positive,
            replicate_paper_values.citation_rank

        from replicate_sample_weights
        inner join replicate_paper_values
            on
                replicate_sample_weights.sample_group = replicate_paper_values.sample_group
                and replicate_sample_weights.paper_number = replicate_paper_values.paper_number

    ),

    -- AUC: positives and negatives per distinct score value, then each value's positives times the
    -- negatives below it plus half the negatives on it (values are distinct within a partition,
    -- so the running sum up to the current value, less its own, is the count below)
    replicate_binary_values as (

        select
            partition_key,
            value_rank,
            sum(weight * positive) as positives,
            sum(weight * (1 - positive)) as negatives

        from replicate_drawn
        where positive is not null
        group by partition_key, value_rank

    ),

    replicate_binary_pairs as (

        select
            *,
            sum(negatives) over (partition by partition_key order by value_rank) - negatives
                as negatives_below

        from replicate_binary_values

    ),

    replicate_binary_metrics as (

        select
            partition_key,
            'auc' as metric,
            -- a double on both engines (Spark would keep the decimal's six digits)
            cast(sum(positives * (negatives_below + 0.5 * negatives)) as double)
            / (sum(positives) * sum(negatives)) as value,  -- noqa: RF04
            cast(sum(positives + negatives) as bigint) as n,
            cast(sum(positives) as bigint) as n_positive

        from replicate_binary_pairs
        group by partition_key
        having sum(positives) > 0 and sum(negatives) > 0

    ),

    -- Spearman: the average rank of each distinct score value and citation count within its
    -- partition (the weight up to it, less half of its own ties' weight, plus a half), then
    -- Pearson's correlation of the two, each paper counted with its weight
    replicate_citation_draws as (

        select
            partition_key,
            weight,
            value_rank,
            citation_rank
        from replicate_drawn
        where positive is null

    ),

    replicate_score_ranks as (

        select
            partition_key,
            value_rank,
            sum(sum(weight)) over (partition by partition_key order by value_rank)
            - (sum(weight) - 1) / 2.0 as score_rank

        from replicate_citation_draws
        group by partition_key, value_rank

    ),

    replicate_citation_ranks as (

        select
            partition_key,
            citation_rank,
            sum(sum(weight)) over (partition by partition_key order by citation_rank)
            - (sum(weight) - 1) / 2.0 as average_citation_rank

        from replicate_citation_draws
        group by partition_key, citation_rank

    ),

    replicate_ranked_citations as (

        select
            replicate_citation_draws.partition_key,
            replicate_citation_draws.weight as w,
            replicate_score_ranks.score_rank as x,
            replicate_citation_ranks.average_citation_rank as y

        from replicate_citation_draws
        inner join replicate_score_ranks
            on
                replicate_citation_draws.partition_key = replicate_score_ranks.partition_key
                and replicate_citation_draws.value_rank = replicate_score_ranks.value_rank
        inner join replicate_citation_ranks
            on
                replicate_citation_draws.partition_key = replicate_citation_ranks.partition_key
                and replicate_citation_draws.citation_rank = replicate_citation_ranks.citation_rank

    ),

    replicate_rank_sums as (

        select
            partition_key,
            sum(w) as n,
            sum(w * x) as sx,
            sum(w * y) as sy,
            sum(w * x * x) as sxx,
            sum(w * y * y) as syy,
            sum(w * x * y) as sxy

        from replicate_ranked_citations
        group by partition_key
        having sum(w) >= 3

    ),

    replicate_rank_metrics as (

        select
            partition_key,
            'spearman' as metric,
            (sxy - sx * sy / n)
            / sqrt(nullif((sxx - sx * sx / n) * (syy - sy * sy / n), 0)) as value,  -- noqa: RF04
            cast(n as bigint) as n,
            cast(null as bigint) as n_positive

        from replicate_rank_sums

    ),

    replicate_metrics as (

        select
            *,
            {{ integer_divide('partition_key', score_span * replicate_span) }} as sample_group,
            {{ integer_divide('partition_key', replicate_span) }} % {{ score_span }} as score_number

        from (
            select
                partition_key,
                metric,
                value
            from replicate_binary_metrics
            union all
            select
                partition_key,
                metric,
                value
            from replicate_rank_metrics
        ) as scored

    ),

    intervals as (

        select
            sample_group,
            score_number,
            metric,
            {{ linear_quantile('value', 0.025) }} as ci_low,
            {{ linear_quantile('value', 0.975) }} as ci_high,
            count(value) as replicates,
            'bootstrap' as interval_method

        from replicate_metrics
        group by sample_group, score_number, metric

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

    select distinct
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
