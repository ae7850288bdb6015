{#- Each paper's normal-normal posterior of every review field, one row per paper with the
    fields side by side, under its category's prior where that is fitted, else its venue's
    (int_eb_priors_fitted):

        shrinkage B_i = tau^2 / (tau^2 + sigma^2 / n_i)
        posterior mean = mu + B_i (xbar_i - mu),   posterior variance = B_i sigma^2 / n_i

    Wide because its readers are: paper_posterior_rankings and int_validity_scores want a
    paper's fields on one row, and computing them here from the papers and the few prior rows
    (pivoted per venue and category) costs one pass over the papers, where pivoting a long table
    back would sort five rows a paper. int_eb_posteriors is its long form. A field the paper has
    no review of has nulls; a field whose venue has no fitted prior has a null posterior and the
    prior's fit_reason, so every consumer can say why there is no number. -#}
{{ config(materialized='table') }}
{%- set fields = outcome_fields() -%}
{%- set prior_columns = ['prior_mean', 'prior_variance', 'noise_variance'] %}

with

papers as (

    select * from {{ ref('int_outcome_papers') }}

),

priors as (

    select * from {{ ref('int_eb_priors_fitted') }}

),

-- every venue's prior of each field, one row per venue (a field with a review has one)
venue_priors as (

    select
        venue,
        {%- for field in fields %}
            max(case when field = '{{ field }}' then fit_reason end) as {{ field }}_fit_reason,
            {%- for column in prior_columns %}
                max(case when field = '{{ field }}' then {{ column }} end) as {{ field }}_{{ column }}
                {%- if not (loop.last and field == fields[-1]) %},{% endif %}
            {%- endfor %}
        {%- endfor %}

    from priors
    where prior_scope = 'venue'
    group by venue

),

-- each category's fitted priors, one row per (venue, category); a field without one is null
category_priors as (

    select
        venue,
        category,
        {%- for field in fields %}
            bool_or(field = '{{ field }}') as {{ field }}_is_fitted,
            {%- for column in prior_columns %}
                max(case when field = '{{ field }}' then {{ column }} end) as {{ field }}_{{ column }}
                {%- if not (loop.last and field == fields[-1]) %},{% endif %}
            {%- endfor %}
        {%- endfor %}

    from priors
    where prior_scope = 'category' and is_fitted
    group by venue, category

),

-- each reviewed field's prior: the category's where fitted, else the venue's
with_prior as (

    select
        papers.venue,
        papers.category,
        papers.paper_id,
        {%- for field in fields %}
            papers.{{ field }}_n,
            papers.{{ field }}_mean,
            case
                when papers.{{ field }}_n > 0 and coalesce(category_priors.{{ field }}_is_fitted, false)
                    then 'category'
                when papers.{{ field }}_n > 0 and venue_priors.{{ field }}_fit_reason is null
                    then 'venue'
            end as {{ field }}_prior_scope,
            case when papers.{{ field }}_n > 0 then venue_priors.{{ field }}_fit_reason end
                as {{ field }}_fit_reason,
            {%- for column in prior_columns %}
                coalesce(category_priors.{{ field }}_{{ column }}, venue_priors.{{ field }}_{{ column }})
                    as {{ field }}_{{ column }} {%- if not (loop.last and field == fields[-1]) %},{% endif %}
            {%- endfor %}
        {%- endfor %}

    from papers
    inner join venue_priors
        on papers.venue = venue_priors.venue
    left join category_priors
        on papers.venue = category_priors.venue and papers.category = category_priors.category

),

shrunk as (

    select
        *,
        {%- for field in fields %}
            case
                when {{ field }}_n > 0
                    then
                        case
                            when {{ field }}_prior_variance + {{ field }}_noise_variance / {{ field }}_n > 0
                                then
                                    {{ field }}_prior_variance / (
                                        {{ field }}_prior_variance
                                        + {{ field }}_noise_variance / {{ field }}_n
                                    )
                            else 0.0
                        end
            end as {{ field }}_shrinkage {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from with_prior

),

final as (

    select
        venue,
        category,
        paper_id,
        {%- for field in fields %}
            {{ field }}_prior_scope,
            {{ field }}_fit_reason,
            {{ field }}_shrinkage,
            {{ field }}_prior_mean + {{ field }}_shrinkage * ({{ field }}_mean - {{ field }}_prior_mean)
                as {{ field }}_posterior,
            sqrt({{ field }}_shrinkage * {{ field }}_noise_variance / {{ field }}_n)
                as {{ field }}_posterior_sd,
        {%- endfor %}
        -- the narrowest prior any reviewed field uses ('category' before 'venue')
        least(
            {%- for field in fields %}
                {{ field }}_prior_scope {%- if not loop.last %},{% endif %}
            {%- endfor %}
        ) as prior_scope,
        -- every reviewed field has a prior (and the paper has a review)
        (
            {%- for field in fields %}
                {{ field }}_n > 0 {%- if not loop.last %} or{% endif %}
            {%- endfor %}
        )
        {%- for field in fields %}
            and ({{ field }}_n = 0 or {{ field }}_prior_scope is not null)
        {%- endfor %} as is_fitted

    from shrunk

)

select * from final
