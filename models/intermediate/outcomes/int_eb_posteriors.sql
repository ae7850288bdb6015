{#- Each reviewed paper's normal-normal posterior of every review field it has, under its
    category's prior where that is fitted, else its venue's (int_eb_priors_fitted):

        shrinkage B_i = tau^2 / (tau^2 + sigma^2 / n_i)
        posterior mean = mu + B_i (xbar_i - mu),   posterior variance = B_i sigma^2 / n_i

    A paper whose venue has no fitted prior for a field keeps the field with null posterior and the
    prior's fit_reason, so every consumer can say why there is no number. One row per paper and
    field. -#}
{%- set fields = outcome_fields() -%}

with

papers as (

    select * from {{ ref('int_outcome_papers') }}

),

priors as (

    select * from {{ ref('int_eb_priors_fitted') }}

),

paper_fields as (

    {%- for field in fields %}
        select
            venue,
            category,
            paper_id,
            is_accepted,
            '{{ field }}' as field,
            {{ field }}_n as review_n,
            {{ field }}_mean as observed_mean

        from papers
        where {{ field }}_n > 0
        {%- if not loop.last %}
            union all
        {%- endif %}
    {%- endfor %}

),

with_prior as (

    select
        paper_fields.*,
        case
            when category_prior.is_fitted then 'category'
            when venue_prior.is_fitted then 'venue'
        end as prior_scope,
        case when not venue_prior.is_fitted then venue_prior.fit_reason end as fit_reason,
        coalesce(category_prior.prior_mean, venue_prior.prior_mean) as prior_mean,
        coalesce(category_prior.prior_variance, venue_prior.prior_variance) as prior_variance,
        coalesce(category_prior.noise_variance, venue_prior.noise_variance) as noise_variance

    from paper_fields
    inner join priors as venue_prior
        on
            paper_fields.venue = venue_prior.venue
            and paper_fields.field = venue_prior.field
            and venue_prior.prior_scope = 'venue'
    left join priors as category_prior
        on
            paper_fields.venue = category_prior.venue
            and paper_fields.category = category_prior.category
            and paper_fields.field = category_prior.field
            and category_prior.prior_scope = 'category'
            and category_prior.is_fitted

),

shrunk as (

    select
        *,
        case
            when prior_variance + noise_variance / review_n > 0
                then prior_variance / (prior_variance + noise_variance / review_n)
            else 0.0
        end as shrinkage

    from with_prior

),

final as (

    select
        venue,
        category,
        paper_id,
        is_accepted,
        field,
        review_n,
        observed_mean,
        prior_scope,
        fit_reason,
        shrinkage,
        prior_mean + shrinkage * (observed_mean - prior_mean) as posterior_mean,
        sqrt(shrinkage * noise_variance / review_n) as posterior_sd

    from shrunk

)

select * from final
