{#- Beside the article's ranking (paper_rankings, unchanged): each ranked paper's composite
    from its empirical-Bayes posterior signal means and that composite's posterior standard
    deviation (int_eb_posterior_composites, which int_validity_scores reads too), and its
    expected rank, 90% rank interval and P(top-N). A paper whose venue's prior cannot be
    fitted (accepted papers only, say) has null numbers and the reason.

    The rank figures come from one of two methods (macros/outcomes/outcome_method.sql):
    - `resample`: the seeded posterior draws (int_eb_posterior_draws), ranked draw by draw;
    - `closed_form`, where the draws would not fit outcomes_row_budget: under the model each
      composite is normal, N(posterior_composite, posterior_composite_se^2) (the fields'
      posteriors are independent and the composite is linear in them), so
      P(top-N) = Phi((m - t) / se) with the category's cutoff t at which the expected number of
      papers above it is N (the rank-uncertainty normal method's cutoff,
      macros/statistics/normal_top_n_cutoff_ctes.sql); the rank interval is the rank at
      m -/+ 1.645 se with the other papers at their posterior composites
      (macros/statistics/normal_rank_interval_ctes.sql); the expected rank is
      1 + sum over the other papers k of P(X_k > X_i) = Phi((m_k - m_i) / sqrt(se_i^2 + se_k^2)),
      summed over 32 bins of the category's composites (a bin's count, mean composite, mean
      se^2, and a second-order term for its spread) instead of every pair. -#}
{%- set fields = outcome_fields() -%}
{%- set configured = outcome_settings().method -%}
{%- set method = outcome_method('posterior') -%}
{%- set top_n = var('top_n') -%}
{%- set bins = 32 %}
-- Under `auto` only the method in force reads its CTEs (the draws or the closed form); the
-- draws are a dependency whatever the setting, so that no setting changes what dbt parses:
-- depends_on: {{ ref('int_eb_posterior_draws') }}
-- noqa: disable=ST03

with

rankings as (

    select * from {{ ref('int_papers_ranked') }}

),

composites as (

    select * from {{ ref('int_eb_posterior_composites') }}

),

paper_texts as (

    select * from {{ ref('stg_raw__papers') }}

),

{%- if configured != 'closed_form' %}

    draws as (

        select * from {{ ref('int_eb_posterior_draws') }}

    ),
{%- endif %}

priors as (

    select * from {{ ref('int_eb_priors_fitted') }}

),

weight_set as (

    select * from {{ ref('int_weight_set') }}

),

category_scales as (

    select
        venue,
        category,
        {%- for field in fields %}
            {{ zscore_sums(field ~ '_mean') }} {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from rankings
    group by venue, category

),

venue_reasons as (

    select
        venue,
        min(fit_reason) as prior_reason

    from priors
    where prior_scope = 'venue' and not is_fitted
    group by venue

),

point as (

    select
        composites.*,
        paper_texts.title

    from composites
    inner join paper_texts
        on composites.paper_id = paper_texts.paper_id

),

{%- if method == 'resample' %}

    draw_composites as (

        select
            draws.venue,
            draws.category,
            draws.paper_id,
            draws.draw,
            sum(
                case draws.field
                    {%- for field in fields %}
                        when '{{ field }}'
                            then
                                weight_set.w_{{ field }}_mean
                                * {{ zscore_from_sums('draws.theta', 'category_scales', field ~ '_mean') }}
                    {%- endfor %}
                end
            ) + max(weight_set.w_rating_std * rankings.z_rating_std) as composite

        from draws
        cross join weight_set
        inner join category_scales
            on draws.venue = category_scales.venue and draws.category = category_scales.category
        inner join rankings
            on draws.paper_id = rankings.paper_id
        group by draws.venue, draws.category, draws.paper_id, draws.draw

    ),

    draw_ranks as (

        select
            paper_id,
            row_number() over (
                partition by venue, category, draw order by composite desc, paper_id asc
            ) as draw_rank

        from draw_composites

    ),

    rank_summaries as (

        select
            paper_id,
            avg(draw_rank) as posterior_expected_rank,
            cast(percentile_disc(0.05) within group (order by draw_rank) as bigint) as posterior_rank_p05,
            cast(percentile_disc(0.95) within group (order by draw_rank) as bigint) as posterior_rank_p95,
            -- 0/1 integers: a double on both engines (Spark averages decimals to a decimal)
            avg(case when draw_rank <= {{ var('top_n') }} then 1 else 0 end) as posterior_p_top_n,
            count(*) as posterior_draws

        from draw_ranks
        group by paper_id

    ),
{%- else %}

    -- the closed form, over the papers with a fitted prior
    closed_papers as (

        select
            venue,
            category,
            paper_id,
            posterior_composite,
            posterior_composite_se,
            row_number() over (
                partition by venue, category order by posterior_composite desc, paper_id asc
            ) as posterior_rank

        from point
        where is_fitted

    ),

    {{ normal_top_n_cutoff_ctes('cutoffs', 'closed_papers', top_n,
        score='posterior_composite', se='posterior_composite_se', rank='posterior_rank') }}

    {{ normal_rank_interval_ctes('interval_ends', 'closed_papers',
        score='posterior_composite', se='posterior_composite_se', rank='posterior_rank') }}

    composite_ranges as (

        select
            venue,
            category,
            min(posterior_composite) as lowest,
            max(posterior_composite) - min(posterior_composite) as spread,
            count(*) as category_papers

        from closed_papers
        group by venue, category

    ),

    binned_papers as (

        select
            closed_papers.venue,
            closed_papers.category,
            closed_papers.posterior_composite,
            closed_papers.posterior_composite_se,
            -- the bin's number, 0..{{ bins - 1 }} (0 for a category whose composites are all equal)
            least(
                cast(floor({{ bins }} * coalesce(
                    (closed_papers.posterior_composite - composite_ranges.lowest)
                    / nullif(composite_ranges.spread, 0), 0
                )) as bigint),
                {{ bins - 1 }}
            ) as bin

        from closed_papers
        inner join composite_ranges
            on
                closed_papers.venue = composite_ranges.venue
                and closed_papers.category = composite_ranges.category

    ),

    composite_bins as (

        select
            venue,
            category,
            bin,
            count(*) as papers,
            avg(posterior_composite) as centre,
            avg(posterior_composite_se * posterior_composite_se) as se_square,
            var_pop(posterior_composite) as within_variance

        from binned_papers
        group by venue, category, bin

    ),

    -- each paper against each bin of its category: sigma^2 = se_i^2 + the bin's mean se^2
    paper_bins as (

        select
            closed_papers.paper_id,
            closed_papers.posterior_composite as composite,
            composite_bins.papers,
            composite_bins.centre,
            composite_bins.within_variance,
            closed_papers.posterior_composite_se * closed_papers.posterior_composite_se
            + composite_bins.se_square as variance

        from closed_papers
        inner join composite_bins
            on
                closed_papers.venue = composite_bins.venue
                and closed_papers.category = composite_bins.category

    ),

    -- P(X_k > X_i) summed by bin: count x Phi(z) with z = (centre - m_i) / sigma, less the
    -- bin's spread v times the second derivative's half, v z phi(z) / (2 sigma^2); then less
    -- the paper's own 1/2
    expected_ranks as (

        select
            paper_id,
            0.5 + sum(papers * (
                {{ normal_tail('centre', 'composite', 'sqrt(variance)') }}
                - case
                    when variance > 0
                        then
                            0.5 * within_variance * (centre - composite) / variance
                            * {{ normal_density_over_se('centre', 'composite', 'sqrt(variance)') }}
                    else 0
                end
            )) as expected_rank

        from paper_bins
        group by paper_id

    ),

    rank_summaries as (

        select
            closed_papers.paper_id,
            expected_ranks.expected_rank as posterior_expected_rank,
            interval_ends.rank_low as posterior_rank_p05,
            interval_ends.rank_high as posterior_rank_p95,
            case
                when composite_ranges.category_papers <= {{ top_n }} then 1.0
                else {{ normal_tail('closed_papers.posterior_composite', 'cutoffs.cutoff',
                    'closed_papers.posterior_composite_se') }}
            end as posterior_p_top_n,
            cast(null as bigint) as posterior_draws

        from closed_papers
        inner join expected_ranks
            on closed_papers.paper_id = expected_ranks.paper_id
        inner join interval_ends
            on closed_papers.paper_id = interval_ends.paper_id
        inner join composite_ranges
            on
                closed_papers.venue = composite_ranges.venue
                and closed_papers.category = composite_ranges.category
        inner join cutoffs
            on
                closed_papers.venue = cutoffs.venue
                and closed_papers.category = cutoffs.category

    ),
{%- endif %}

final as (

    select
        point.venue,
        point.category,
        point.paper_id,
        point.title,
        point.review_count,
        point.category_rank,
        point.local_top_overall,
        point.is_top_n,
        point.posterior_composite,
        point.posterior_composite_se,
        rank_summaries.posterior_expected_rank,
        rank_summaries.posterior_rank_p05,
        rank_summaries.posterior_rank_p95,
        rank_summaries.posterior_p_top_n,
        rank_summaries.posterior_draws,
        case when point.is_fitted then '{{ method }}' end as posterior_method,
        case when point.is_fitted then 'fitted' else 'not_fitted' end as prior_status,
        case when point.is_fitted then point.prior_scope end as prior_scope,
        case when not point.is_fitted then coalesce(
            venue_reasons.prior_reason, 'no fitted prior for a signal the weight set weighs'
        ) end as prior_reason

    from point
    left join rank_summaries
        on point.paper_id = rank_summaries.paper_id
    left join venue_reasons
        on point.venue = venue_reasons.venue

)

select * from final
