{#- Every score marts.ranking_validity tests, for every paper of every (venue, category or null
    for venue-wide, population) group, with the paper's outcomes. One row per group and paper.

    Groups: venue-wide over all reviewed submissions (all_submissions) and over the accepted ones
    (accepted), each with the composite computed over that group (the article's z-scores and
    weights, over the venue instead of a category); each ranked category's accepted papers with
    the article's own composite (paper_rankings, unchanged); and a category over all submissions
    only where it holds papers that were not accepted (classifiers label accepted papers only).

    Scores: local_top_overall, each review field's plain mean, and posterior_mean: the same
    composite of the empirical-Bayes posterior means (int_eb_paper_posteriors), z-scored with the
    group's centre and scale of the plain means (rating_std keeps its own z). Outcomes:
    outcome_accepted (1 accepted, 0 rejected; withdrawn and undecided null), outcome_top_tier
    (1 oral or spotlight, 0 other accepted; null outside the accepted) and citations. -#}
{{ config(materialized='table') }}
{%- set fields = outcome_fields() -%}
{%- set signals = ranking_signals() -%}
{%- set scaled = signals | list -%}
{%- for field in fields -%}
    {%- if field ~ '_mean' not in scaled -%}
        {%- do scaled.append(field ~ '_mean') -%}
    {%- endif -%}
{%- endfor -%}
{%- set carried = ['paper_id', 'is_accepted', 'decision_tier', 'citations'] + scaled -%}
{%- set counts = [] -%}
{%- for field in fields -%}
    {%- do counts.extend([field ~ '_n', field ~ '_ss']) -%}
{%- endfor -%}
{%- set carried = carried + counts -%}
{%- set member_columns = carried + [] -%}
{%- for field in fields -%}
    {%- do member_columns.append(field ~ '_posterior') -%}
{%- endfor -%}
{%- do member_columns.append('is_fitted') -%}
{#- The kinds of group, each over its own papers: the venue over every reviewed submission, the
    venue over the accepted ones, and each mixed category over all its submissions. member_signals
    lists each group's papers and group_scales sums each group, both from this one list. -#}
{%- set groups = [
    {'papers': 'paper_values', 'category': none, 'population': 'all_submissions', 'where': none},
    {'papers': 'paper_values', 'category': none, 'population': 'accepted', 'where': 'is_accepted'},
    {'papers': 'mixed_members', 'category': 'paper_category', 'population': 'all_submissions',
     'where': none},
] -%}

with

papers as (

    select * from {{ ref('int_outcome_papers') }}

),

paper_posteriors as (

    select * from {{ ref('int_eb_paper_posteriors') }}

),

rankings as (

    select * from {{ ref('int_papers_ranked') }}

),

posterior_composites as (

    select * from {{ ref('int_eb_posterior_composites') }}

),

weight_set as (

    select * from {{ ref('int_weight_set') }}

),

-- each paper's values every group of it carries: its signals and field means, its posterior
-- means, its outcomes and its review counts (carried, so that no group joins the papers back).
-- The one reader of the papers: DuckDB keeps a CTE read more than once whole (here every column
-- of int_outcome_papers, past the memory limit at a million papers)
paper_values as (

    select
        papers.venue,
        papers.category as paper_category,
        {%- for column in carried %}
            papers.{{ column }},
        {%- endfor %}
        {%- for field in fields %}
            paper_posteriors.{{ field }}_posterior,
        {%- endfor %}
        coalesce(paper_posteriors.is_fitted, false) as is_fitted

    from papers
    left join paper_posteriors
        on papers.paper_id = paper_posteriors.paper_id

),

mixed_categories as (

    select
        venue,
        paper_category as category
    from paper_values
    where paper_category is not null
    group by venue, paper_category
    having bool_or(not is_accepted)

),

-- the papers of those categories, each category's own group over all its submissions
mixed_members as (

    select paper_values.*
    from paper_values
    inner join mixed_categories
        on
            paper_values.venue = mixed_categories.venue
            and paper_values.paper_category = mixed_categories.category

),

member_signals as (
    {%- for group in groups %}

        select
            venue,
            {{ group.category or 'cast(null as string)' }} as category,
            '{{ group.population }}' as population,
            {%- for column in member_columns %}
                {{ column }} {%- if not loop.last %},{% endif %}
            {%- endfor %}
        from {{ group.papers }}
        {%- if group.where %}
            where {{ group.where }}
        {%- endif %}
        {%- if not loop.last %}
            union all
        {%- endif %}
    {%- endfor %}

),

-- each group's exact sums of every signal and field mean: the article's z-scores as
-- paper_rankings computes them (macros/statistics/zscore.sql), over the group. Summed from the
-- papers' values, one group-by per kind of group, not from member_signals: read once, by
-- standardized, member_signals streams into the join instead of being kept whole (every group
-- of every paper, past the memory limit at a million papers)
group_scales as (
    {%- for group in groups %}

        select
            venue,
            {{ group.category or 'cast(null as string)' }} as category,
            '{{ group.population }}' as population,
            {%- for column in scaled %}
                {{ zscore_sums(column) }} {%- if not loop.last %},{% endif %}
            {%- endfor %}
        from {{ group.papers }}
        {%- if group.where %}
            where {{ group.where }}
        {%- endif %}
        group by venue{% if group.category %}, {{ group.category }}{% endif %}
        {%- if not loop.last %}
            union all
        {%- endif %}
    {%- endfor %}

),

-- the z-scores over each group (an undefined z-score is 0); a posterior mean takes its field's
-- plain means' centre and scale
standardized as (

    select
        member_signals.*,
        {%- for signal in signals %}
            {{ zscore_from_sums('member_signals.' ~ signal, 'group_scales', signal) }} as z_{{ signal }},
        {%- endfor %}
        {%- for field in fields %}
            {{ zscore_from_sums('member_signals.' ~ field ~ '_posterior', 'group_scales', field ~ '_mean') }}
                as z_{{ field }}_posterior {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from member_signals
    inner join group_scales
        on
            member_signals.venue = group_scales.venue
            and coalesce(member_signals.category, '') = coalesce(group_scales.category, '')
            and member_signals.population = group_scales.population

),

venue_scores as (

    select
        standardized.venue,
        standardized.category,
        standardized.population,
        standardized.paper_id,
        {%- for signal in signals %}
            weight_set.w_{{ signal }} * standardized.z_{{ signal }} {%- if not loop.last %} +{% endif %}
        {%- endfor %} as local_top_overall,
        {%- for field in fields %}
            standardized.{{ field }}_mean,
        {%- endfor %}
        case
            when standardized.is_fitted
                then
                    {%- for field in fields %}
                        weight_set.w_{{ field }}_mean * standardized.z_{{ field }}_posterior +
                    {%- endfor %}
                    weight_set.w_rating_std * standardized.z_rating_std
        end as posterior_mean,
        standardized.is_accepted,
        standardized.decision_tier,
        standardized.citations,
        {%- for column in counts %}
            standardized.{{ column }} {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from standardized
    cross join weight_set

),

category_scores as (

    select
        rankings.venue,
        rankings.category,
        'accepted' as population,
        rankings.paper_id,
        rankings.local_top_overall,
        {%- for field in fields %}
            rankings.{{ field }}_mean,
        {%- endfor %}
        posterior_composites.posterior_composite as posterior_mean,
        paper_values.is_accepted,
        paper_values.decision_tier,
        paper_values.citations,
        {%- for column in counts %}
            paper_values.{{ column }} {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from rankings
    inner join paper_values
        on rankings.paper_id = paper_values.paper_id
    left join posterior_composites
        on rankings.paper_id = posterior_composites.paper_id

),

scores as (

    select * from venue_scores
    union all
    select * from category_scores

),

final as (

    select
        venue,
        category,
        population,
        paper_id,
        local_top_overall,
        {%- for field in fields %}
            {{ field }}_mean,
        {%- endfor %}
        posterior_mean,
        case
            when population = 'all_submissions' and is_accepted then 1
            when population = 'all_submissions' and decision_tier = 'rejected' then 0
        end as outcome_accepted,
        case
            when population = 'accepted' and decision_tier in ('oral', 'spotlight') then 1
            when population = 'accepted' and decision_tier in ('poster', 'accepted') then 0
        end as outcome_top_tier,
        citations,
        {%- for column in counts %}
            {{ column }} {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from scores

)

select * from final
