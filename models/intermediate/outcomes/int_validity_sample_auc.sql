{#- How well each score separates a binary group's positives from its negatives, on the sample:
    one row per (binary validity group, score) with the AUC and DeLong's standard error of it.

    AUC is the Mann-Whitney statistic, ties counted half: the share of (positive, negative)
    pairs the score puts in the right order. It is computed per distinct score value (the
    positives and negatives there, the negatives below and the positives above it), not per
    pair. The placement values (a positive's share of the negatives below it, ties half; a
    negative's share of the positives above it) have the AUC as their mean in each class, and
    DeLong's variance is the sum of each class's placement variance over its size. -#}
{%- set score_columns = validity_score_columns() %}

with

group_scores as (

    select * from {{ ref('int_validity_group_scores') }}

),

-- positives and negatives per group, score and distinct score value
score_values as (

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
class_sizes as (

    select
        sample_group,
        score_number,
        sum(positives) as class_positives,
        sum(negatives) as class_negatives

    from score_values
    group by sample_group, score_number

),

-- the negatives below and the positives above each value
value_neighbours as (

    select
        score_values.sample_group,
        score_values.score_number,
        score_values.positives,
        score_values.negatives,
        class_sizes.class_positives,
        class_sizes.class_negatives,
        sum(score_values.negatives) over (
            partition by score_values.sample_group, score_values.score_number
            order by score_values.score_value
        ) - score_values.negatives as negatives_below,
        class_sizes.class_positives - sum(score_values.positives) over (
            partition by score_values.sample_group, score_values.score_number
            order by score_values.score_value
        ) as positives_above

    from score_values
    inner join class_sizes
        on
            score_values.sample_group = class_sizes.sample_group
            and score_values.score_number = class_sizes.score_number

),

-- the AUC and the sums of each class's squared placement values
placement_sums as (

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

    from value_neighbours
    group by sample_group, score_number
    having max(class_positives) > 0 and max(class_negatives) > 0

),

final as (

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

    from placement_sums

)

select * from final
