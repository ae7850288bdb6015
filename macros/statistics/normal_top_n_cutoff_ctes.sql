{#-
    The CTEs of the normal method's top-N cutoffs, ending in `name` (venue, category, cutoff):
    per category of `papers` (a relation or CTE with venue, category, the point composite
    `score`, its standard error `se`, its point rank `rank` and a non-null `key`) the cutoff t
    that solves f(t) = sum_i Phi((s_i - t) / se_i) - min(N, size) = 0 (the
    expected number of papers above t is N), s a paper's point composite and se its standard
    error (int_normal_composite_errors). f falls as t rises, so the root is found by Newton's
    method kept inside a bracket: it starts halfway between the N-th and (N+1)-th point
    composites (exact when every se is 0), each step evaluates f and its slope once per paper,
    narrows the bracket [lower, upper] to the side of the root, and takes the Newton step when
    it stays in the bracket, else the bracket's middle. It reaches machine precision in 4-6
    steps on real and synthetic venues; 12 steps are unrolled. (A 16-way grid search to the
    same precision cost 195 evaluations per paper instead of 12, and 13x the time at 1M papers.)
    Near the limit: Phi is exactly 0 or 1 beyond 8 se (normal_cdf), so only the papers within
    `reach` se of the bracket enter the steps; the others add exactly 1 or 0 at every cutoff
    tried, which is what the full sum adds, so f is the same function (up to the order of the
    floating-point sum). Each step is one loop per category over its near papers' list
    (struct_list_sum), not a join and group-by of every paper: 2.4x less CPU at 1M papers. The
    list is joined to the bracket once and carried from step to step, and a step whose cutoff is
    the one the step before evaluated (the steps have converged) carries f and its slope instead
    of looping again: from there every step gives the same cutoff, so the result is the same.
-#}
{#- (12 steps; `reach`: how far, in standard errors, beyond the bracket a paper can no longer
    move the count) -#}
{% macro normal_top_n_cutoff_ctes(name, papers, top_n, score, se, rank, key='paper_id') -%}
    {#- two steps for the linter (macros/lint/rendered_for_lint.sql) -#}
    {%- set iterations = 2 if rendered_for_lint() else 12 -%}
    {%- set reach = 8.5 -%}

-- The start: halfway between the N-th and (N+1)-th point composites (exact when every se is
-- 0). The bracket: at t = lower_bound every point top-N paper is {{ reach }} se or more above t, at
-- t = upper_bound every paper from rank N down is {{ reach }} se or more below it, so the root
-- lies between. Phi is exactly 0 or 1 beyond 8 se (normal_cdf), so a paper
-- {{ reach }} se or more beyond the bracket on either side adds exactly 1 or 0 at every cutoff
-- the steps try: only the papers that can be near the cutoff enter the steps.
starts as (

    select
        venue,
        category,
        least(count(*), {{ top_n }}) as target_papers,
        coalesce(
            (
                min({{ score }}) filter (where {{ rank }} <= {{ top_n }})
                + max({{ score }}) filter (where {{ rank }} > {{ top_n }})
            ) / 2,
            min({{ score }})
        ) as cutoff,
        min({{ score }} - {{ reach }} * {{ se }}) filter (where {{ rank }} <= {{ top_n }})
            as top_n_floor,
        coalesce(
            max({{ score }} + {{ reach }} * {{ se }}) filter (where {{ rank }} >= {{ top_n }}),
            max({{ score }} + {{ reach }} * {{ se }})
        ) as rest_ceiling

    from {{ papers }}
    group by venue, category

),

bracketed as (

    select
        venue,
        category,
        target_papers,
        cutoff,
        least(top_n_floor, cutoff) as lower_bound,
        greatest(rest_ceiling, cutoff) as upper_bound

    from starts

),

near_papers as (

    select
        {{ papers }}.venue,
        {{ papers }}.category,
        {{ papers }}.{{ score }},
        {{ papers }}.{{ se }}

    from {{ papers }}
    inner join bracketed
        on
            {{ papers }}.venue = bracketed.venue
            and {{ papers }}.category = bracketed.category
    where
        {{ papers }}.{{ score }} + {{ reach }} * {{ papers }}.{{ se }} >= bracketed.lower_bound
        and {{ papers }}.{{ score }} - {{ reach }} * {{ papers }}.{{ se }} <= bracketed.upper_bound

),

-- each category's near papers as one list, so that a step is one loop over it per category
-- (no join or group-by of the papers per step)
near_lists as (

    select
        venue,
        category,
        {{ struct_list({'score': score, 'se': se}) }} as points

    from near_papers
    group by venue, category

),

-- the papers sure to be above every cutoff in the bracket count 1 each: the near papers'
-- expected count must make up the rest of the target
started as (

    select
        bracketed.venue,
        bracketed.category,
        bracketed.lower_bound,
        bracketed.upper_bound,
        bracketed.cutoff,
        bracketed.target_papers - count({{ papers }}.{{ key }}) as target_papers

    from bracketed
    left join {{ papers }}
        on
            bracketed.venue = {{ papers }}.venue
            and bracketed.category = {{ papers }}.category
            and {{ papers }}.{{ score }} - {{ reach }} * {{ papers }}.{{ se }} > bracketed.upper_bound
    group by
        bracketed.venue, bracketed.category, bracketed.target_papers, bracketed.lower_bound,
        bracketed.upper_bound, bracketed.cutoff

),

-- the bracket with its near papers' list, which every step carries (one join of the lists, not
-- one a step), and where f and its slope were last evaluated (nowhere yet)
bracket_0 as (

    select
        started.*,
        near_lists.points,
        cast(null as double) as evaluated_cutoff,
        cast(null as double) as expected_above,
        cast(null as double) as slope

    from started
    inner join near_lists
        on
            started.venue = near_lists.venue
            and started.category = near_lists.category

),

    {%- for step in range(1, iterations + 1) %}
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
            bracket.points,
            -- a step that stays where the step before evaluated has converged: every later step
            -- would evaluate the same cutoff to the same f and slope, so they are carried
            case
                when bracket.cutoff = bracket.evaluated_cutoff then bracket.expected_above
                else {{ struct_list_sum('bracket.points', 'point',
                    normal_tail('point.score', 'bracket.cutoff', 'point.se')) }}
            end as expected_above,
            case
                when bracket.cutoff = bracket.evaluated_cutoff then bracket.slope
                else {{ struct_list_sum('bracket.points', 'point',
                    normal_density_over_se('point.score', 'bracket.cutoff', 'point.se')) }}
            end as slope

        from bracket_{{ step - 1 }} as bracket

    ),

    narrowed_{{ step }} as (

        select
            venue,
            category,
            target_papers,
            cutoff,
            points,
            expected_above,
            slope,
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
            end as cutoff,
            points,
            cutoff as evaluated_cutoff,
            expected_above,
            slope

        from narrowed_{{ step }}

    ),

    {%- endfor %}

    {{ name }} as (

    select
        venue,
        category,
        cutoff

    from bracket_{{ iterations }}

),
{%- endmacro %}
