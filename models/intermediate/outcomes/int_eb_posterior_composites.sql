{#- Each ranked paper's composite from its empirical-Bayes posterior signal means
    (int_eb_paper_posteriors) instead of its plain review means, and that composite's posterior
    standard deviation. The composite keeps the article's standardisation: each posterior mean is
    z-scored with the category's mean and sample standard deviation of the plain means, and
    rating_std (not modelled) keeps its own z-score. The fields' posteriors are independent and
    the composite is linear in them, so its sd is the root of the weighted variances' sum. Null
    for a paper whose prior is not fitted. A table: marts.paper_posterior_rankings ranks these
    composites and int_validity_scores scores them. -#}
{{ config(materialized='table') }}
{%- set fields = outcome_fields() %}

with

rankings as (

    select * from {{ ref('int_papers_ranked') }}

),

paper_posteriors as (

    select * from {{ ref('int_eb_paper_posteriors') }}

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

final as (

    select
        rankings.venue,
        rankings.category,
        rankings.paper_id,
        rankings.review_count,
        rankings.category_rank,
        rankings.local_top_overall,
        rankings.is_top_n,
        rankings.z_rating_std,
        paper_posteriors.prior_scope,
        coalesce(paper_posteriors.is_fitted, false) as is_fitted,
        case
            when coalesce(paper_posteriors.is_fitted, false)
                then
                    {%- for field in fields %}
                        weight_set.w_{{ field }}_mean * {{ zscore_from_sums(
                            'paper_posteriors.' ~ field ~ '_posterior', 'category_scales', field ~ '_mean') }} +
                    {%- endfor %}
                    weight_set.w_rating_std * rankings.z_rating_std
        end as posterior_composite,
        -- the composite is linear in the fields' independent normal posteriors
        case
            when coalesce(paper_posteriors.is_fitted, false)
                then sqrt(
                    {%- for field in fields %}
                        power(weight_set.w_{{ field }}_mean * coalesce(
                            paper_posteriors.{{ field }}_posterior_sd
                            / nullif(category_scales.{{ field }}_mean_std, 0), 0
                        ), 2)
                        {%- if not loop.last %} +{% endif %}
                    {%- endfor %}
                )
        end as posterior_composite_se

    from rankings
    cross join weight_set
    inner join category_scales
        on rankings.venue = category_scales.venue and rankings.category = category_scales.category
    left join paper_posteriors
        on rankings.paper_id = paper_posteriors.paper_id

)

select * from final
