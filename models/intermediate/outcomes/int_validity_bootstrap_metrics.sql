{#- The seeded bootstrap of marts.ranking_validity: for every validity group, score and metric,
    the 2.5% and 97.5% percentiles of the metric over the resamples of int_validity_samples
    (replicates 1..validity_replicates), and how many replicates had one (both classes drawn).

    The resamples are joined on integers only: each paper's score and citation count become
    their dense ranks within the group and score first, and a replicate's draws become weights
    (a paper drawn twice counts twice). AUC is the Mann-Whitney statistic, ties counted half;
    Spearman is Pearson's correlation of the weighted average ranks, as the mart computes them
    on the sample. Empty when the closed form is in force (outcomes_method closed_form, or `auto`
    choosing it) (macros/outcomes/outcome_method.sql). -#}
{{ config(materialized='table') }}
{%- set score_columns = validity_score_columns() -%}
{#- one integer per (sample group, score, replicate): the windows partition by it -#}
{%- set replicate_span = 16777216 -%}
{%- set score_span = 16 %}

with

group_papers as (

    select * from {{ ref('int_validity_group_papers') }}

),

samples as (

    select * from {{ ref('int_validity_samples') }}

),

replicate_long_scores as (

    {%- for column in score_columns %}
        select
            sample_group,
            paper_number,
            positive,
            citations,
            {{ loop.index }} as score_number,
            {{ column }} as score_value
        from group_papers
        where {{ column }} is not null
        {%- if not loop.last %}
            union all
        {%- endif %}
    {%- endfor %}

),

-- each paper's score (and citation count) as its dense rank within the group and score
replicate_paper_values as (

    select
        sample_group,
        paper_number,
        score_number,
        positive,
        dense_rank() over (partition by sample_group, score_number order by score_value) as value_rank,
        dense_rank() over (partition by sample_group, score_number order by citations) as citation_rank

    from replicate_long_scores

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

final as (

    select
        sample_group,
        score_number,
        metric,
        {{ linear_quantile('value', 0.025) }} as ci_low,
        {{ linear_quantile('value', 0.975) }} as ci_high,
        count(value) as replicates

    from replicate_metrics
    group by sample_group, score_number, metric

)

select * from final
