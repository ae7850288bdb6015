{#- How well each score tracks the outcomes: one row per (venue, category or null for
    venue-wide, population, outcome, score), with the metric's value on the sample, its seeded
    bootstrap 95% interval (percentiles of the replicates of int_validity_samples), n, and the
    ceiling the reviews' reliability allows (int_validity_reliability).

    - accepted (all_submissions): AUC of accepted against rejected submissions (withdrawn and
      undecided left out);
    - top_tier (accepted): AUC of oral or spotlight against the other accepted papers;
    - citations (both): Spearman correlation with the citation count.

    AUC is the Mann-Whitney statistic, ties counted half: the share of (positive, negative) pairs
    the score puts in the right order. Spearman is Pearson's correlation of the average ranks
    (ties share their mean rank). A group whose outcome has one class only, or fewer than 3
    papers, has no row. -#}
{%- set fields = outcome_fields() -%}
{%- set score_columns = ['local_top_overall'] -%}
{%- for field in fields -%}
    {%- do score_columns.append(field ~ '_mean') -%}
{%- endfor -%}
{%- do score_columns.append('posterior_mean') -%}
{#- one integer per (sample group, score, replicate): the windows partition by it -#}
{%- set keys = 'partition_key' -%}

with

scores as (

    select * from {{ ref('int_validity_scores') }}

),

samples as (

    select * from {{ ref('int_validity_samples') }}

),

reliability as (

    select * from {{ ref('int_validity_reliability') }}

),

long_scores as (

    {%- for column in score_columns %}
        select
            venue, category, population, paper_id,
            '{{ column }}' as score,
            {{ loop.index }} as score_number,
            {{ column }} as score_value,
            outcome_accepted,
            outcome_top_tier,
            citations
        from scores
        where {{ column }} is not null
        {%- if not loop.last %}
            union all
        {%- endif %}
    {%- endfor %}

),

drawn as (

    select
        samples.venue,
        samples.category,
        samples.population,
        samples.outcome,
        long_scores.score,
        samples.replicate,
        (samples.sample_group * 16 + long_scores.score_number) * 16777216 + samples.replicate
            as partition_key,
        long_scores.score_value,
        case samples.outcome
            when 'accepted' then long_scores.outcome_accepted
            when 'top_tier' then long_scores.outcome_top_tier
        end as positive,
        long_scores.citations

    from samples
    inner join long_scores
        on
            samples.paper_id = long_scores.paper_id
            and samples.venue = long_scores.venue
            and coalesce(samples.category, '') = coalesce(long_scores.category, '')
            and samples.population = long_scores.population

),

partitions as (

    select distinct venue, category, population, outcome, score, replicate, partition_key
    from drawn

),

-- AUC: positives and negatives per distinct score value, then each value's positives times the
-- negatives below it plus half the negatives on it (values are distinct within a partition,
-- so the running sum up to the current value, less its own, is the count below)
binary_values as (

    select
        {{ keys }},
        score_value,
        sum(positive) as positives,
        count(*) - sum(positive) as negatives

    from drawn
    where outcome in ('accepted', 'top_tier')
    group by {{ keys }}, score_value

),

binary_pairs as (

    select
        *,
        sum(negatives) over (partition by {{ keys }} order by score_value) - negatives
            as negatives_below

    from binary_values

),

binary_metrics as (

    select
        {{ keys }},
        'auc' as metric,
        sum(positives * (negatives_below + 0.5 * negatives)) / (sum(positives) * sum(negatives)) as value,
        sum(positives + negatives) as n,
        sum(positives) as n_positive

    from binary_pairs
    group by {{ keys }}
    having sum(positives) > 0 and sum(negatives) > 0

),

-- Spearman: the average rank of each distinct score value and citation count within its
-- partition (the rows below it plus half of its own ties, plus a half), then Pearson of the
-- two over the rows
citation_draws as (

    select partition_key, score_value, citations from drawn
    where outcome = 'citations'

),

score_ranks as (

    select
        partition_key,
        score_value,
        sum(count(*)) over (partition by partition_key order by score_value)
        - (count(*) - 1) / 2.0 as score_rank

    from citation_draws
    group by partition_key, score_value

),

citation_ranks as (

    select
        partition_key,
        citations,
        sum(count(*)) over (partition by partition_key order by citations)
        - (count(*) - 1) / 2.0 as citation_rank

    from citation_draws
    group by partition_key, citations

),

ranked_citations as (

    select
        citation_draws.partition_key,
        score_ranks.score_rank,
        citation_ranks.citation_rank

    from citation_draws
    inner join score_ranks
        on
            citation_draws.partition_key = score_ranks.partition_key
            and citation_draws.score_value = score_ranks.score_value
    inner join citation_ranks
        on
            citation_draws.partition_key = citation_ranks.partition_key
            and citation_draws.citations = citation_ranks.citations

),

rank_metrics as (

    select
        {{ keys }},
        'spearman' as metric,
        corr(score_rank, citation_rank) as value,
        count(*) as n,
        cast(null as bigint) as n_positive

    from ranked_citations
    group by {{ keys }}
    having count(*) >= 3

),

metrics as (

    select partitions.*, scored.metric, scored.value, scored.n, scored.n_positive
    from (
        select * from binary_metrics
        union all
        select * from rank_metrics
    ) as scored
    inner join partitions
        on scored.partition_key = partitions.partition_key

),

summarized as (

    select
        venue, category, population, outcome, score, metric,
        max(case when replicate = 0 then value end) as value,
        max(case when replicate = 0 then n end) as n,
        max(case when replicate = 0 then n_positive end) as n_positive,
        quantile_cont(value, 0.025) filter (where replicate > 0) as ci_low,
        quantile_cont(value, 0.975) filter (where replicate > 0) as ci_high,
        count(value) filter (where replicate > 0) as replicates

    from metrics
    group by venue, category, population, outcome, score, metric

),

final as (

    select
        summarized.venue,
        summarized.category,
        summarized.population,
        summarized.outcome,
        summarized.score,
        summarized.metric,
        summarized.value,
        summarized.n,
        summarized.n_positive,
        summarized.ci_low,
        summarized.ci_high,
        summarized.replicates,
        reliability.reliability,
        reliability.ceiling

    from summarized
    left join reliability
        on
            summarized.venue = reliability.venue
            and coalesce(summarized.category, '') = coalesce(reliability.category, '')
            and summarized.population = reliability.population
            and summarized.outcome = reliability.outcome
            and summarized.score = reliability.score
    where summarized.value is not null

)

select * from final
