{#- Beside the article's ranking (paper_rankings, unchanged): each ranked paper's composite
    from its empirical-Bayes posterior signal means (int_eb_posteriors) instead of its plain
    review means, and its expected rank, 90% rank interval and P(top-N) over the posterior
    draws (int_eb_posterior_draws). The composite keeps the article's standardisation: each
    posterior mean is z-scored with the category's mean and sample standard deviation of the
    plain means, and rating_std (not modelled) keeps its own z-score. A paper whose venue's prior
    cannot be fitted (accepted papers only, say) has null numbers and the reason. -#}
{%- set fields = outcome_fields() -%}

with

rankings as (

    select * from {{ ref('paper_rankings') }}

),

posteriors as (

    select * from {{ ref('int_eb_posteriors') }}

),

draws as (

    select * from {{ ref('int_eb_posterior_draws') }}

),

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
            avg({{ field }}_mean) as {{ field }}_centre,
            stddev_samp({{ field }}_mean) as {{ field }}_scale {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from rankings
    group by venue, category

),

paper_posteriors as (

    select
        paper_id,
        {%- for field in fields %}
            max(case when field = '{{ field }}' then posterior_mean end) as {{ field }}_posterior,
        {%- endfor %}
        min(prior_scope) as prior_scope,
        bool_and(prior_scope is not null) as is_fitted

    from posteriors
    group by paper_id

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
        rankings.venue,
        rankings.category,
        rankings.paper_id,
        rankings.title,
        rankings.review_count,
        rankings.category_rank,
        rankings.local_top_overall,
        rankings.is_top_n,
        paper_posteriors.prior_scope,
        coalesce(paper_posteriors.is_fitted, false) as is_fitted,
        case
            when coalesce(paper_posteriors.is_fitted, false)
                then
                    {%- for field in fields %}
                        weight_set.w_{{ field }}_mean * coalesce(
                            (paper_posteriors.{{ field }}_posterior - category_scales.{{ field }}_centre)
                            / nullif(category_scales.{{ field }}_scale, 0), 0
                        ) +
                    {%- endfor %}
                    weight_set.w_rating_std * rankings.z_rating_std
        end as posterior_composite

    from rankings
    cross join weight_set
    inner join category_scales
        on rankings.venue = category_scales.venue and rankings.category = category_scales.category
    left join paper_posteriors
        on rankings.paper_id = paper_posteriors.paper_id

),

draw_composites as (

    select
        draws.venue,
        draws.category,
        draws.paper_id,
        draws.draw,
        sum(
            case draws.field
                {%- for field in fields %}
                    when '{{ field }}' then weight_set.w_{{ field }}_mean * coalesce(
                        (draws.theta - category_scales.{{ field }}_centre)
                        / nullif(category_scales.{{ field }}_scale, 0), 0
                    )
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
        avg(case when draw_rank <= {{ var('top_n') }} then 1.0 else 0.0 end) as posterior_p_top_n,
        count(*) as posterior_draws

    from draw_ranks
    group by paper_id

),

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
        rank_summaries.posterior_expected_rank,
        rank_summaries.posterior_rank_p05,
        rank_summaries.posterior_rank_p95,
        rank_summaries.posterior_p_top_n,
        rank_summaries.posterior_draws,
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
