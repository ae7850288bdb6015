{#-
    The closed-form (normal) rank uncertainty. A paper's composite is taken as normal around
    its point value s with its standard error se (int_composite_errors_estimated). Per category
    the cutoff t solves f(t) = sum_i Phi((s_i - t) / se_i) - min(N, size) = 0 (the expected
    number of papers above t is N). f falls as t rises, so the root is found by Newton's method
    kept inside a bracket: it starts halfway between the N-th and (N+1)-th point composites
    (exact when every se is 0), each step evaluates f and its slope once per paper, narrows the
    bracket [lower, upper] to the side of the root, and takes the Newton step when it stays in
    the bracket, else the bracket's middle. It reaches machine precision in 4-6 steps on real
    and synthetic venues; 12 steps are unrolled. (A 16-way grid search to the same
    precision cost 195 evaluations per paper instead of 12, and 13x the time at 1M papers.)
    Then P(top-N) = Phi((s - t) / se), rounded to 6 decimals (Phi's approximation is good to
    1e-7); category_rank_stability tests that the P sum to min(N, size).
    Rank interval: the rank the paper would take if its composite moved to s -/+ 1.645 se with
    the other papers at their point composites.
-#}
{%- set iterations = 12 -%}
{%- set z95 = 1.6448536269514722 -%}
{%- set top_n = var('top_n') -%}

with

papers as (

    select * from {{ ref('int_composite_errors_estimated') }}

),

bracket_0 as (

    select
        venue,
        category,
        least(count(*), {{ top_n }}) as target_papers,
        min(local_top_overall) - 10 * max(composite_se) - 1 as lower_bound,
        max(local_top_overall) + 10 * max(composite_se) + 1 as upper_bound,
        coalesce(
            (
                min(local_top_overall) filter (where category_rank <= {{ top_n }})
                + max(local_top_overall) filter (where category_rank > {{ top_n }})
            ) / 2,
            min(local_top_overall)
        ) as cutoff

    from papers
    group by venue, category

),

{% for step in range(1, iterations + 1) -%}
-- step {{ step }}: f and its slope at the cutoff, then the bracket's side and the next cutoff
-- (each step reads the step before once: Spark copies a CTE into every reader, so two reads
-- per step would plan 2^{{ iterations }} copies of the first)
    evaluated_{{ step }} as (

        select
            bracket.venue,
            bracket.category,
            bracket.target_papers,
            bracket.lower_bound,
            bracket.upper_bound,
            bracket.cutoff,
            sum({{ normal_tail('papers.local_top_overall', 'bracket.cutoff', 'papers.composite_se') }})
                as expected_above,
            sum({{ normal_density_over_se(
                'papers.local_top_overall', 'bracket.cutoff', 'papers.composite_se'
            ) }}) as slope

        from bracket_{{ step - 1 }} as bracket
        inner join papers
            on
                bracket.venue = papers.venue
                and bracket.category = papers.category
        group by
            bracket.venue, bracket.category, bracket.target_papers, bracket.lower_bound,
            bracket.upper_bound, bracket.cutoff

    ),

    narrowed_{{ step }} as (

        select
            venue,
            category,
            target_papers,
            cutoff,
            expected_above,
            case
                when expected_above > target_papers then cutoff
                else lower_bound
            end as lower_bound,
            case
                when expected_above <= target_papers then cutoff
                else upper_bound
            end as upper_bound,
            cutoff + (expected_above - target_papers) / nullif(slope, 0) as newton_cutoff

        from evaluated_{{ step }}

    ),

    bracket_{{ step }} as (

        select
            venue,
            category,
            target_papers,
            lower_bound,
            upper_bound,
            case
                when expected_above = target_papers then cutoff
                when newton_cutoff between lower_bound and upper_bound then newton_cutoff
                else (lower_bound + upper_bound) / 2
            end as cutoff

        from narrowed_{{ step }}

    ),

{% endfor -%}

cutoffs as (

    select
        venue,
        category,
        cutoff

    from bracket_{{ iterations }}

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
points as (

    select
        venue,
        category,
        paper_id,
        local_top_overall as composite,
        1 as is_paper,
        'paper' as point_kind

    from papers
    {%- for end, sign in [('best', '+'), ('worst', '-')] %}

        union all

        select
            venue,
            category,
            paper_id,
            local_top_overall {{ sign }} {{ z95 }} * composite_se as composite,
            0 as is_paper,
            '{{ end }}' as point_kind

        from papers
    {%- endfor %}

),

-- papers strictly above each interval end (an end sorts before papers of equal composite)
counted as (

    select
        *,
        sum(is_paper) over (
            partition by venue, category
            order by composite desc, is_paper asc, paper_id asc
            rows between unbounded preceding and current row
        ) as papers_above

    from points

),

interval_ends as (

    select
        paper_id,
        min(case when point_kind = 'best' then papers_above end) + 1 as best_rank,
        -- the paper itself sits above its own worst end when se > 0
        min(case when point_kind = 'worst' then papers_above end) as worst_papers_above

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
