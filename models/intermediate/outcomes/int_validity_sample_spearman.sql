{#- How closely each score's order follows the citation counts, on the sample: one row per
    (citations validity group, score) with Spearman's correlation, the Pearson correlation of
    the average ranks (ties share their mean rank: the papers below a value, plus half of its
    ties and a half), over the papers with both, at least 3 of them. -#}
{%- set score_columns = validity_score_columns() %}

with

group_scores as (

    select * from {{ ref('int_validity_group_scores') }}

),

-- a citation count's rank, per score, counts only the papers whose score is not null: from
-- the group's few distinct citation counts, joined back once
citation_counts as (

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

citation_ranks as (

    select
        sample_group,
        citations,
        {%- for column in score_columns %}
            sum(papers_{{ loop.index }}) over (partition by sample_group order by citations)
            - (papers_{{ loop.index }} - 1) / 2.0 as citation_rank_{{ loop.index }}
            {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from citation_counts

),

citation_scores as (

    {%- for column in score_columns %}
        select
            group_scores.sample_group,
            {{ loop.index }} as score_number,
            group_scores.{{ column }} as score_value,
            citation_ranks.citation_rank_{{ loop.index }} as citation_rank
        from group_scores
        inner join citation_ranks
            on
                group_scores.sample_group = citation_ranks.sample_group
                and group_scores.citations = citation_ranks.citations
        where group_scores.positive is null and group_scores.{{ column }} is not null
        {%- if not loop.last %}
            union all
        {%- endif %}
    {%- endfor %}

),

-- a score value's rank is the same for all its ties: sum the citation ranks per value, then
-- each value's average rank from the running count
score_values as (

    select
        sample_group,
        score_number,
        score_value,
        count(*) as papers,
        sum(citation_rank) as sum_y,
        sum(citation_rank * citation_rank) as sum_yy

    from citation_scores
    group by sample_group, score_number, score_value

),

score_ranks as (

    select
        sample_group,
        score_number,
        papers,
        sum_y,
        sum_yy,
        sum(papers) over (
            partition by sample_group, score_number order by score_value
        ) - (papers - 1) / 2.0 as score_rank

    from score_values

),

rank_sums as (

    select
        sample_group,
        score_number,
        cast(sum(papers) as double) as n,
        sum(papers * score_rank) as sx,
        sum(sum_y) as sy,
        sum(papers * score_rank * score_rank) as sxx,
        sum(sum_yy) as syy,
        sum(score_rank * sum_y) as sxy

    from score_ranks
    group by sample_group, score_number
    having sum(papers) >= 3

),

final as (

    select
        sample_group,
        score_number,
        'spearman' as metric,
        cast(null as bigint) as n_positive,
        cast(n as bigint) as n,
        (sxy - sx * sy / n)
        / sqrt(nullif((sxx - sx * sx / n) * (syy - sy * sy / n), 0)) as value  -- noqa: RF04

    from rank_sums

)

select * from final
