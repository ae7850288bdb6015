{#- The ceiling the reviews' own reliability puts on each validity figure, per (venue, category,
    population, outcome) group of marts.ranking_validity and score.

    Within a group, a field's plain mean has error variance sigma^2 * mean(1/n) (sigma^2 the
    pooled within-paper variance of its reviews) and reliability
    R = 1 - sigma^2 mean(1/n) / var(mean). The composites (local_top_overall and the posterior
    mean) are weighted sums of z-scores, so their error variance is the sum of w^2 times each
    field's error variance over its variance (reviewers' errors taken as independent across
    fields; rating_std's own noise is left out), over the composite's variance.

    A perfectly valid score measured through these reviews correlates at most sqrt(R) with what
    it measures: that is the ceiling of a Spearman row. For an AUC row the ceiling is the AUC the
    noisy score reaches when the outcome is a cut of the noise-free score at the group's observed
    rate p (bivariate normal with correlation r = sqrt(R)):
        AUC = P(S1 > S0 | T1 > c > T0) = E[ Phi(r (T1 - T0) / sqrt(2 (1 - r^2))) ],
    integrated on a grid of 150 x 150 midpoints over [-6, 6]^2 (step 0.08); c is the grid cut
    whose upper normal tail is nearest to p (steps of 0.005).

    Among accepted papers the moment estimate of R is not a reliability: the decision selected
    on the same reviews, truncating the true spread and the errors alike (it even comes out
    below 0). Those rows have no ceiling, and ceiling_note says why. -#}
{%- set fields = outcome_fields() -%}
{%- set noise_columns = ['local_top_overall'] -%}
{%- for field in fields -%}
    {%- do noise_columns.extend([field ~ '_mean', field ~ '_n', field ~ '_ss']) -%}
{%- endfor -%}
{%- set grid = 150 -%}
{%- set step = 0.08 -%}

with

scores as (

    select * from {{ ref('int_validity_scores') }}

),

weight_set as (

    select * from {{ ref('int_weight_set') }}

),

-- each (group, outcome) pair's papers: the one rule of macros/outcomes/validity_outcome_rows.sql
eligible as (

    {{ validity_outcome_rows('scores', noise_columns) }}

),

group_noise as (

    select
        venue,
        category,
        population,
        outcome,
        count(*) as n,
        avg(positive) as positive_rate,
        var_samp(local_top_overall) as composite_variance,
        {%- for field in fields %}
            sum({{ field }}_ss) / nullif(sum({{ field }}_n) - count({{ field }}_mean), 0)
            * avg(1.0 / nullif({{ field }}_n, 0)) as {{ field }}_error,
            var_samp({{ field }}_mean) as {{ field }}_variance {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from eligible
    group by venue, category, population, outcome

),

reliabilities as (

    {%- for field in fields %}
        select
            venue,
            category,
            population,
            outcome,
            positive_rate,
            '{{ field }}_mean' as score,
            1 - {{ field }}_error / nullif({{ field }}_variance, 0) as reliability
        from group_noise
        where {{ field }}_variance is not null
        union all
    {%- endfor %}
    {%- for score in ['local_top_overall', 'posterior_mean'] %}
        select
            group_noise.venue,
            group_noise.category,
            group_noise.population,
            group_noise.outcome,
            group_noise.positive_rate,
            '{{ score }}' as score,
            1 - (
                {%- for field in fields %}
                    coalesce(
                        weight_set.w_{{ field }}_mean * weight_set.w_{{ field }}_mean
                        * group_noise.{{ field }}_error / nullif(group_noise.{{ field }}_variance, 0), 0
                    )
                    {%- if not loop.last %} +{% endif %}
                {%- endfor %}
            ) / nullif(group_noise.composite_variance, 0) as reliability
        from group_noise
        cross join weight_set
        {%- if not loop.last %}
            union all
        {%- endif %}
    {%- endfor %}

),

clipped as (

    select
        venue,
        category,
        population,
        outcome,
        positive_rate,
        score,
        least(greatest(reliability, 0.0), 1.0) as reliability,
        sqrt(least(greatest(reliability, 0.0), 1.0)) as r

    from reliabilities

),

cut_candidates as (

    select -5.0 + 0.005 * (step_number - 1) as cut
    from {{ integer_series('step_number', 2001) }} as steps

),

cuts as (

    select
        clipped.venue,
        clipped.category,
        clipped.population,
        clipped.outcome,
        clipped.score,
        min_by(cut_candidates.cut, abs(1 - {{ normal_cdf('cut_candidates.cut') }} - clipped.positive_rate))
            as cut

    from clipped
    cross join cut_candidates
    -- accepted papers have no ceiling (below), so no cut and no grid is computed for them
    where clipped.population <> 'accepted' and clipped.positive_rate > 0 and clipped.positive_rate < 1
    group by clipped.venue, clipped.category, clipped.population, clipped.outcome, clipped.score

),

nodes as (

    select
        -6.0 + {{ step }} * (node_number - 0.5) as t,
        exp(-0.5 * power(-6.0 + {{ step }} * (node_number - 0.5), 2)) as density

    from {{ integer_series('node_number', grid) }} as grid_nodes

),

auc_ceilings as (

    select
        clipped.venue,
        clipped.category,
        clipped.population,
        clipped.outcome,
        clipped.score,
        case
            when clipped.r >= 0.999999 then 1.0
            when clipped.r <= 0 then 0.5
            else
                sum(upper.density * lower.density * {{ normal_cdf(
                'clipped.r * (upper.t - lower.t) / sqrt(2 * (1 - clipped.r * clipped.r))') }})
                / (sum(upper.density * lower.density))
        end as auc_ceiling

    from clipped
    inner join cuts
        on
            clipped.venue = cuts.venue
            and coalesce(clipped.category, '') = coalesce(cuts.category, '')
            and clipped.population = cuts.population
            and clipped.outcome = cuts.outcome
            and clipped.score = cuts.score
    inner join nodes as upper
        on cuts.cut < upper.t
    inner join nodes as lower
        on cuts.cut > lower.t
    group by clipped.venue, clipped.category, clipped.population, clipped.outcome, clipped.score, clipped.r

),

final as (

    select
        clipped.venue,
        clipped.category,
        clipped.population,
        clipped.outcome,
        clipped.score,
        case when clipped.population <> 'accepted' then clipped.reliability end as reliability,
        case
            when clipped.population = 'accepted' then null
            when clipped.outcome = 'citations' then clipped.r
            else auc_ceilings.auc_ceiling
        end as ceiling,
        case
            when clipped.population = 'accepted'
                then
                    'not estimable among accepted papers: they were selected on these reviews, '
                    || 'which truncates both the true spread and the reviewers'' errors'
        end as ceiling_note

    from clipped
    left join auc_ceilings
        on
            clipped.venue = auc_ceilings.venue
            and coalesce(clipped.category, '') = coalesce(auc_ceilings.category, '')
            and clipped.population = auc_ceilings.population
            and clipped.outcome = auc_ceilings.outcome
            and clipped.score = auc_ceilings.score

)

select * from final
