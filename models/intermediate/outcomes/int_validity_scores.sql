{#- Every score marts.ranking_validity tests, for every paper of every (venue, category or null
    for venue-wide, population) group, with the paper's outcomes. One row per group and paper.

    Groups: venue-wide over all reviewed submissions (all_submissions) and over the accepted ones
    (accepted), each with the composite computed over that group (the article's z-scores and
    weights, over the venue instead of a category); each ranked category's accepted papers with
    the article's own composite (paper_rankings, unchanged); and a category over all submissions
    only where it holds papers that were not accepted (classifiers label accepted papers only).

    Scores: local_top_overall, each review field's plain mean, and posterior_mean: the same
    composite of the empirical-Bayes posterior means (int_eb_posteriors), z-scored with the
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

with

papers as (

    select * from {{ ref('int_outcome_papers') }}

),

posteriors as (

    select * from {{ ref('int_eb_posteriors') }}

),

rankings as (

    select * from {{ ref('paper_rankings') }}

),

posterior_rankings as (

    select * from {{ ref('paper_posterior_rankings') }}

),

weight_set as (

    select * from {{ ref('int_weight_set') }}

),

paper_posteriors as (

    select
        paper_id,
        {%- for field in fields %}
            max(case when field = '{{ field }}' then posterior_mean end) as {{ field }}_posterior,
        {%- endfor %}
        bool_and(prior_scope is not null) as is_fitted

    from posteriors
    group by paper_id

),

mixed_categories as (

    select
        venue,
        category
    from papers
    where category is not null
    group by venue, category
    having bool_or(not is_accepted)

),

members as (

    select
        venue,
        cast(null as string) as category,
        'all_submissions' as population,
        paper_id
    from papers
    union all
    select
        venue,
        cast(null as string) as category,
        'accepted' as population,
        paper_id
    from papers
    where is_accepted
    union all
    select
        papers.venue,
        papers.category,
        'all_submissions' as population,
        papers.paper_id
    from papers
    inner join mixed_categories
        on papers.venue = mixed_categories.venue and papers.category = mixed_categories.category

),

member_signals as (

    select
        members.*,
        {%- for signal in signals %}
            {%- if signal == 'rating_std' %}
                papers.rating_std,
            {%- else %}
                papers.{{ signal }},
            {%- endif %}
        {%- endfor %}
        {%- for field in fields %}
            paper_posteriors.{{ field }}_posterior,
        {%- endfor %}
        coalesce(paper_posteriors.is_fitted, false) as is_fitted

    from members
    inner join papers
        on members.paper_id = papers.paper_id
    left join paper_posteriors
        on members.paper_id = paper_posteriors.paper_id

),

-- each group's centre and scale of every signal and field mean (one aggregate, joined back:
-- cheaper at scale than a window per column)
group_scales as (

    select
        venue,
        category,
        population,
        {%- for column in scaled %}
            avg({{ column }}) as {{ column }}_centre,
            stddev_samp({{ column }}) as {{ column }}_scale {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from member_signals
    group by venue, category, population

),

-- the article's z-scores over each group (an undefined z-score is 0)
standardized as (

    select
        member_signals.*,
        {%- for signal in signals %}
            coalesce(
                (member_signals.{{ signal }} - group_scales.{{ signal }}_centre)
                / nullif(group_scales.{{ signal }}_scale, 0), 0
            ) as z_{{ signal }},
        {%- endfor %}
        {%- for field in fields %}
            coalesce(
                (member_signals.{{ field }}_posterior - group_scales.{{ field }}_mean_centre)
                / nullif(group_scales.{{ field }}_mean_scale, 0), 0
            ) as z_{{ field }}_posterior {%- if not loop.last %},{% endif %}
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
        end as posterior_mean

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
        posterior_rankings.posterior_composite as posterior_mean

    from rankings
    left join posterior_rankings
        on rankings.paper_id = posterior_rankings.paper_id

),

scores as (

    select * from venue_scores
    union all
    select * from category_scores

),

final as (

    select
        scores.*,
        case
            when scores.population = 'all_submissions' and papers.is_accepted then 1
            when scores.population = 'all_submissions' and papers.decision_tier = 'rejected' then 0
        end as outcome_accepted,
        case
            when scores.population = 'accepted' and papers.decision_tier in ('oral', 'spotlight') then 1
            when scores.population = 'accepted' and papers.decision_tier in ('poster', 'accepted') then 0
        end as outcome_top_tier,
        papers.citations,
        {%- for field in fields %}
            papers.{{ field }}_n,
            papers.{{ field }}_ss {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from scores
    inner join papers
        on scores.paper_id = papers.paper_id

)

select * from final
