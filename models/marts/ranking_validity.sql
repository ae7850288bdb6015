{#- How well each score tracks the outcomes: one row per (venue, category or null for
    venue-wide, population, outcome, score), with the metric's value on the sample, its seeded
    bootstrap 95% interval (percentiles over the replicates of int_validity_samples), n, and
    the ceiling the reviews' reliability allows (int_validity_reliability).

    - accepted (all_submissions): AUC of accepted against rejected submissions (withdrawn and
      undecided left out);
    - top_tier (accepted): AUC of oral or spotlight against the other accepted papers;
    - citations (both): Spearman correlation with the citation count.

    AUC is the Mann-Whitney statistic, ties counted half: the share of (positive, negative) pairs
    the score puts in the right order. Spearman is Pearson's correlation of the average ranks
    (ties share their mean rank). A group whose outcome has one class only, or fewer than 3
    papers, has no row (int_validity_groups). The replicates are joined on integers only: each
    paper's score and citation count become their dense ranks within the group first. -#}
{%- set fields = outcome_fields() -%}
{%- set score_columns = ['local_top_overall'] -%}
{%- for field in fields -%}
    {%- do score_columns.append(field ~ '_mean') -%}
{%- endfor -%}
{%- do score_columns.append('posterior_mean') -%}
{#- one integer per (sample group, score, replicate): the windows partition by it -#}
{%- set replicate_span = 16777216 -%}
{%- set score_span = 16 -%}

with

validity_groups as (

    select * from {{ ref('int_validity_groups') }}

),

samples as (

    select * from {{ ref('int_validity_samples') }}

),

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

long_scores as (

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
paper_values as (

    select
        validity_groups.sample_group,
        validity_groups.paper_number,
        long_scores.score_number,
        validity_groups.positive,
        dense_rank() over (
            partition by validity_groups.sample_group, long_scores.score_number
            order by long_scores.score_value
        ) as value_rank,
        dense_rank() over (
            partition by validity_groups.sample_group, long_scores.score_number
            order by validity_groups.citations
        ) as citation_rank

    from validity_groups
    inner join long_scores
        on
            validity_groups.paper_id = long_scores.paper_id
            and validity_groups.venue = long_scores.venue
            and coalesce(validity_groups.category, '') = coalesce(long_scores.category, '')
            and validity_groups.population = long_scores.population

),

-- a replicate draws a paper 0, 1 or more times: its weight in that replicate
sample_weights as (

    select
        sample_group,
        replicate,
        paper_number,
        count(*) as weight
    from samples
    group by sample_group, replicate, paper_number

),

drawn as (

    select
        (sample_weights.sample_group * {{ score_span }} + paper_values.score_number) * {{ replicate_span }}
        + sample_weights.replicate as partition_key,
        sample_weights.weight,
        paper_values.value_rank,
        paper_values.positive,
        paper_values.citation_rank

    from sample_weights
    inner join paper_values
        on
            sample_weights.sample_group = paper_values.sample_group
            and sample_weights.paper_number = paper_values.paper_number

),

-- AUC: positives and negatives per distinct score value, then each value's positives times the
-- negatives below it plus half the negatives on it (values are distinct within a partition,
-- so the running sum up to the current value, less its own, is the count below)
binary_values as (

    select
        partition_key,
        value_rank,
        sum(weight * positive) as positives,
        sum(weight * (1 - positive)) as negatives

    from drawn
    where positive is not null
    group by partition_key, value_rank

),

binary_pairs as (

    select
        *,
        sum(negatives) over (partition by partition_key order by value_rank) - negatives
            as negatives_below

    from binary_values

),

binary_metrics as (

    select
        partition_key,
        'auc' as metric,
        -- a double on both engines (Spark would keep the decimal's six digits)
        cast(sum(positives * (negatives_below + 0.5 * negatives)) as double)
        / (sum(positives) * sum(negatives)) as value,  -- noqa: RF04
        cast(sum(positives + negatives) as bigint) as n,
        cast(sum(positives) as bigint) as n_positive

    from binary_pairs
    group by partition_key
    having sum(positives) > 0 and sum(negatives) > 0

),

-- Spearman: the average rank of each distinct score value and citation count within its
-- partition (the weight up to it, less half of its own ties' weight, plus a half), then
-- Pearson's correlation of the two, each paper counted with its weight
citation_draws as (

    select
        partition_key,
        weight,
        value_rank,
        citation_rank
    from drawn
    where positive is null

),

score_ranks as (

    select
        partition_key,
        value_rank,
        sum(sum(weight)) over (partition by partition_key order by value_rank)
        - (sum(weight) - 1) / 2.0 as score_rank

    from citation_draws
    group by partition_key, value_rank

),

citation_ranks as (

    select
        partition_key,
        citation_rank,
        sum(sum(weight)) over (partition by partition_key order by citation_rank)
        - (sum(weight) - 1) / 2.0 as average_citation_rank

    from citation_draws
    group by partition_key, citation_rank

),

ranked_citations as (

    select
        citation_draws.partition_key,
        citation_draws.weight as w,
        score_ranks.score_rank as x,
        citation_ranks.average_citation_rank as y

    from citation_draws
    inner join score_ranks
        on
            citation_draws.partition_key = score_ranks.partition_key
            and citation_draws.value_rank = score_ranks.value_rank
    inner join citation_ranks
        on
            citation_draws.partition_key = citation_ranks.partition_key
            and citation_draws.citation_rank = citation_ranks.citation_rank

),

rank_sums as (

    select
        partition_key,
        sum(w) as n,
        sum(w * x) as sx,
        sum(w * y) as sy,
        sum(w * x * x) as sxx,
        sum(w * y * y) as syy,
        sum(w * x * y) as sxy

    from ranked_citations
    group by partition_key
    having sum(w) >= 3

),

rank_metrics as (

    select
        partition_key,
        'spearman' as metric,
        (sxy - sx * sy / n)
        / sqrt(nullif((sxx - sx * sx / n) * (syy - sy * sy / n), 0)) as value,  -- noqa: RF04
        cast(n as bigint) as n,
        cast(null as bigint) as n_positive

    from rank_sums

),

metrics as (

    select
        *,
        {{ integer_divide('partition_key', score_span * replicate_span) }} as sample_group,
        {{ integer_divide('partition_key', replicate_span) }} % {{ score_span }} as score_number,
        partition_key % {{ replicate_span }} as replicate

    from (
        select * from binary_metrics
        union all
        select * from rank_metrics
    ) as scored

),

summarized as (

    select
        sample_group,
        score_number,
        metric,
        max(case when replicate = 0 then value end) as value,  -- noqa: RF04
        max(case when replicate = 0 then n end) as n,
        max(case when replicate = 0 then n_positive end) as n_positive,
        {{ linear_quantile('case when replicate > 0 then value end', 0.025) }} as ci_low,
        {{ linear_quantile('case when replicate > 0 then value end', 0.975) }} as ci_high,
        count(value) filter (where replicate > 0) as replicates

    from metrics
    group by sample_group, score_number, metric

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
