{#- The empirical-Bayes priors as fitted (int_eb_priors_fitted): one row per venue (and
    category), review field and scope, with the prior's mean and variance and the reviewers'
    noise variance, or is_fitted false and the reason it cannot be fitted. -#}

with

priors as (

    select * from {{ ref('int_eb_priors_fitted') }}

),

final as (

    select
        venue,
        category,
        prior_scope,
        field,
        papers_reviewed,
        papers_not_accepted,
        is_fitted,
        fit_reason,
        prior_mean,
        prior_variance,
        noise_variance,
        prior_variance / nullif(prior_variance + noise_variance * mean_inverse_n, 0)
            as mean_reliability

    from priors

)

select * from final
