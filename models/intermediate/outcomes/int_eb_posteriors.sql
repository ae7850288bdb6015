{#- Each reviewed paper's normal-normal posterior of every review field it has, one row per
    paper and field: the long form of int_eb_paper_posteriors (where the posterior is computed),
    for the readers that take a paper's fields one at a time (the posterior draws, and an
    analyst comparing fields). A field whose venue has no fitted prior keeps its row with a null
    posterior and the prior's fit_reason. -#}
{%- set fields = outcome_fields() -%}

with

papers as (

    select * from {{ ref('int_outcome_papers') }}

),

paper_posteriors as (

    select * from {{ ref('int_eb_paper_posteriors') }}

),

final as (

    {%- for field in fields %}
        select
            papers.venue,
            papers.category,
            papers.paper_id,
            papers.is_accepted,
            '{{ field }}' as field,
            papers.{{ field }}_n as review_n,
            papers.{{ field }}_mean as observed_mean,
            paper_posteriors.{{ field }}_prior_scope as prior_scope,
            paper_posteriors.{{ field }}_fit_reason as fit_reason,
            paper_posteriors.{{ field }}_shrinkage as shrinkage,
            paper_posteriors.{{ field }}_posterior as posterior_mean,
            paper_posteriors.{{ field }}_posterior_sd as posterior_sd

        from papers
        inner join paper_posteriors
            on papers.paper_id = paper_posteriors.paper_id
        where papers.{{ field }}_n > 0
        {%- if not loop.last %}
            union all
        {%- endif %}
    {%- endfor %}

)

select * from final
