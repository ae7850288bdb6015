{#-
    The CTEs of the normal method's 90% rank interval, ending in `name` (`key`, rank_low,
    rank_high): for each paper of `papers` (a relation or CTE with venue, category, the point
    composite `score`, its standard error `se`, its point `rank` and the paper's `key`), the rank
    it would take if its composite moved to score + 1.645 se (rank_low) and to score - 1.645 se
    (rank_high), with the other papers at their point composites; the interval always holds the
    point rank. One sort of the points and the two ends per category, partitioned by an integer
    key of the category (two string keys per row made the sort 2.5 times as long at 1M papers).
    `rank` must be unique within a category (a rank of row_number): with the category's key it
    names an end's paper, so the ends are counted and joined back on two integers rather than
    on the paper's id (a string), which the sort never carries.
-#}
{% macro normal_rank_interval_ctes(name, papers, score, se, rank, key='paper_id') -%}

-- an integer key per category, the sort's partition
{{ name }}_categories as (

    select
        venue,
        category,
        row_number() over (order by venue, category) as category_key

    from {{ papers }}
    group by venue, category

),

{{ name }}_keyed as (

    select
        {{ name }}_categories.category_key,
        {{ papers }}.{{ key }},
        {{ papers }}.{{ rank }} as point_rank,
        {{ papers }}.{{ score }},
        {{ papers }}.{{ se }}

    from {{ papers }}
    inner join {{ name }}_categories
        on
            {{ papers }}.venue = {{ name }}_categories.venue
            and {{ papers }}.category = {{ name }}_categories.category

),

-- the composites the interval's ends stand at, sorted in among the papers' point composites
-- (the sort carries only what the count needs: a paper's own row no rank, an end its paper's)
points as (

    select
        category_key,
        cast(null as bigint) as point_rank,
        {{ score }} as composite,
        1 as is_paper,
        0 as is_best

    from {{ name }}_keyed
    {%- for is_best, sign in [(1, '+'), (0, '-')] %}

        union all

        select
            category_key,
            point_rank,
            {{ score }} {{ sign }} 1.6448536269514722 * {{ se }} as composite,
            0 as is_paper,
            {{ is_best }} as is_best

        from {{ name }}_keyed
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
            partition by category_key
            order by composite desc, is_paper asc
            rows between unbounded preceding and current row
        ) as bigint) as papers_above

    from points

),

{{ name }}_counts as (

    select
        category_key,
        point_rank,
        min(case when is_best = 1 then papers_above end) + 1 as best_rank,
        min(case when is_best = 0 then papers_above end) as worst_papers_above

    from counted
    where is_paper = 0
    group by category_key, point_rank

),

{{ name }} as (

    select
        {{ name }}_keyed.{{ key }},
        least({{ name }}_counts.best_rank, {{ name }}_keyed.point_rank) as rank_low,
        -- the paper itself sits above its own worst end when se > 0, not when se = 0
        greatest(
            {{ name }}_counts.worst_papers_above
            + case when {{ name }}_keyed.{{ se }} > 0 then 0 else 1 end,
            {{ name }}_keyed.point_rank
        ) as rank_high

    from {{ name }}_counts
    inner join {{ name }}_keyed
        on
            {{ name }}_counts.category_key = {{ name }}_keyed.category_key
            and {{ name }}_counts.point_rank = {{ name }}_keyed.point_rank

),
{%- endmacro %}
