{#- Each metric on the sample with its closed-form 95% interval: one row per (validity group,
    score, metric), the AUCs of int_validity_sample_auc and the Spearman correlations of
    int_validity_sample_spearman. The mart takes these intervals where the closed form is in
    force (macros/outcomes/outcome_method.sql), the bootstrap's otherwise:
    - AUC (`delong`): value -/+ 1.96 DeLong standard errors, clipped to [0, 1];
    - Spearman (`fisher_z`): tanh(atanh(rho) -/+ 1.96 se) with Bonett and Wright's variance
      (1 + rho^2 / 2) / (n - 3); none for n <= 3 or |rho| = 1. -#}
{%- set z975 = 1.959963984540054 %}

with

auc as (

    select * from {{ ref('int_validity_sample_auc') }}

),

spearman as (

    select * from {{ ref('int_validity_sample_spearman') }}

),

final as (

    select
        sample_group,
        score_number,
        metric,
        value,
        n,
        n_positive,
        greatest(0.0, value - {{ z975 }} * delong_se) as closed_low,
        least(1.0, value + {{ z975 }} * delong_se) as closed_high,
        'delong' as closed_method

    from auc
    union all
    select
        sample_group,
        score_number,
        metric,
        value,
        n,
        n_positive,
        case
            when n > 3 and abs(value) < 1
                then tanh(atanh(value) - {{ z975 }} * sqrt((1 + value * value / 2) / (n - 3)))
        end as closed_low,
        case
            when n > 3 and abs(value) < 1
                then tanh(atanh(value) + {{ z975 }} * sqrt((1 + value * value / 2) / (n - 3)))
        end as closed_high,
        'fisher_z' as closed_method

    from spearman

)

select * from final
