{#- The method in force: `bootstrap` or `normal` as set, or for `auto` the one chosen from the
    data (macros/ranking/rank_uncertainty_method.sql). Both methods' models are always built,
    the one not in force empty (a set method is known when the model compiles; under `auto` the
    choice needs int_papers_ranked, built in the same run). -#}
-- depends_on: {{ ref('int_papers_ranked') }}
{%- set settings = rank_uncertainty_settings() -%}
{%- set configured = var('rank_uncertainty_method') -%}
{%- set top_n = var('top_n') -%}
{%- set method = rank_uncertainty_method() %}
-- Under `auto` only the method in force reads its CTE (bootstrapped or estimated); both are
-- dependencies whatever the setting, so that no setting changes what dbt parses:
-- depends_on: {{ ref('int_bootstrap_paper_ranks') }}
-- depends_on: {{ ref('int_normal_paper_ranks') }}
-- noqa: disable=ST03

with

rankings as (

    select * from {{ ref('paper_rankings') }}

),

{%- if configured != 'normal' %}

    bootstrapped as (

        select * from {{ ref('int_bootstrap_paper_ranks') }}

    ),
{%- endif %}
{%- if configured != 'bootstrap' %}

    estimated as (

        select * from {{ ref('int_normal_paper_ranks') }}

    ),
{%- endif %}

summarized as (

    {%- if method == 'bootstrap' %}

        select
            *,
            'bootstrap' as uncertainty_method,
            sqrt(p_top_n * (1 - p_top_n) / replicates) as p_top_n_se

        from (
            select
                venue,
                category,
                paper_id,
                cast(percentile_disc(0.05) within group (order by replicate_rank) as bigint) as rank_p05,
                cast(percentile_disc(0.50) within group (order by replicate_rank) as bigint) as rank_p50,
                cast(percentile_disc(0.95) within group (order by replicate_rank) as bigint) as rank_p95,
                avg(replicate_rank) as rank_mean,
                -- 0/1 integers: a double on both engines (Spark averages decimals to a decimal)
                avg(case when replicate_rank <= {{ top_n }} then 1 else 0 end) as p_top_n,
                count(*) as replicates

            from bootstrapped
            group by venue, category, paper_id
        ) as bootstrap_summary

    {%- else %}

        select
            venue,
            category,
            paper_id,
            rank_p05,
            rank_p50,
            rank_p95,
            rank_mean,
            p_top_n,
            cast(null as bigint) as replicates,
            cast(null as double) as p_top_n_se,
            'normal' as uncertainty_method

        from estimated

    {%- endif %}

),

final as (

    select
        rankings.venue,
        rankings.category,
        rankings.paper_id,
        rankings.title,
        rankings.category_rank,
        rankings.category_size,
        rankings.is_top_n,
        rankings.local_top_overall,
        summarized.rank_p05,
        summarized.rank_p50,
        summarized.rank_p95,
        summarized.rank_mean,
        summarized.p_top_n,
        summarized.p_top_n_se,
        case
            when summarized.p_top_n >= {{ settings.secure }} then 'secure'
            when summarized.p_top_n > {{ settings.outside }} then 'borderline'
            else 'outside'
        end as rank_band,
        summarized.uncertainty_method,
        summarized.replicates

    from rankings
    inner join summarized
        on rankings.paper_id = summarized.paper_id

)

select * from final
