{#-
    The normal method's rank uncertainty (disabled when rank_uncertainty_method is bootstrap).
    A paper's composite is taken as normal around its point value s with its standard error se
    (int_normal_composite_errors); with its category's cutoff t (int_normal_top_n_cutoffs),
    P(top-N) = Phi((s - t) / se), rounded to 6 decimals (Phi's approximation is good to 1e-7);
    category_rank_stability tests that the P sum to min(N, size).
    Rank interval: the rank the paper would take if its composite moved to s -/+ 1.645 se with
    the other papers at their point composites.
-#}
{{ config(enabled=var('rank_uncertainty_method') != 'bootstrap') }}
{%- set z95 = 1.6448536269514722 -%}
{%- set top_n = var('top_n') %}

with

papers as (

    select * from {{ ref('int_normal_composite_errors') }}

),

cutoffs as (

    select * from {{ ref('int_normal_top_n_cutoffs') }}

),

probabilities as (

    select
        papers.*,
        cutoffs.cutoff,
        case
            when papers.category_size <= {{ top_n }} then 1.0
            else
                round(
                    {{ normal_tail('papers.local_top_overall', 'cutoffs.cutoff', 'papers.composite_se') }}, 6
                )
        end as p_top_n

    from papers
    inner join cutoffs
        on
            papers.venue = cutoffs.venue
            and papers.category = cutoffs.category

),

-- the composites the interval's ends stand at, sorted in among the papers' point composites
-- (the sort carries only what the count needs: a paper's own row no id, an end its paper's)
points as (

    select
        venue,
        category,
        cast(null as string) as paper_id,
        local_top_overall as composite,
        1 as is_paper,
        0 as is_best

    from papers
    {%- for is_best, sign in [(1, '+'), (0, '-')] %}

        union all

        select
            venue,
            category,
            paper_id,
            local_top_overall {{ sign }} {{ z95 }} * composite_se as composite,
            0 as is_paper,
            {{ is_best }} as is_best

        from papers
    {%- endfor %}

),

-- papers strictly above each interval end: an end sorts before papers of equal composite, so
-- the count is the same whichever order rows of equal composite and kind take (a sum of
-- integers is a 128-bit integer on DuckDB: cast back, so the ranks stay bigint as the
-- paper_rank_uncertainty contract says)
counted as (

    select
        *,
        cast(sum(is_paper) over (
            partition by venue, category
            order by composite desc, is_paper asc
            rows between unbounded preceding and current row
        ) as bigint) as papers_above

    from points

),

interval_ends as (

    select
        paper_id,
        min(case when is_best = 1 then papers_above end) + 1 as best_rank,
        -- the paper itself sits above its own worst end when se > 0
        min(case when is_best = 0 then papers_above end) as worst_papers_above

    from counted
    where is_paper = 0
    group by paper_id

),

final as (

    select
        probabilities.venue,
        probabilities.category,
        probabilities.paper_id,
        probabilities.local_top_overall,
        probabilities.composite_se,
        probabilities.cutoff,
        probabilities.p_top_n,
        probabilities.category_rank as rank_p50,
        cast(probabilities.category_rank as double) as rank_mean,
        least(interval_ends.best_rank, probabilities.category_rank) as rank_p05,
        greatest(
            interval_ends.worst_papers_above + case when probabilities.composite_se > 0 then 0 else 1 end,
            probabilities.category_rank
        ) as rank_p95

    from probabilities
    inner join interval_ends
        on probabilities.paper_id = interval_ends.paper_id

)

select * from final
