{#- The normal-normal empirical-Bayes prior of each review field, per venue and per category.

    Model: review j of paper i scores x_ij = theta_i + e_ij, e_ij ~ N(0, sigma^2), and
    theta_i ~ N(mu, tau^2) over the venue's (or category's) submissions. Fitted by moments:

        sigma^2 = sum_i sum_j (x_ij - xbar_i)^2 / sum_i (n_i - 1)     (pooled within-paper variance)
        mu      = mean_i xbar_i
        tau^2   = max(0, var_i(xbar_i) - sigma^2 * mean_i(1 / n_i))   (between-paper variance)

    on every reviewed submission, accepted or not. It is fitted only where it can be: a group whose
    reviewed papers are all (or nearly all) accepted has a between-paper spread truncated by the
    selection, so its row says not_fitted and why (fit_reason), with no numbers. A category's own
    prior needs eb_min_category_papers reviewed papers as well; papers of other categories use the
    venue's (int_eb_posteriors). -#}
{%- set settings = outcome_settings() -%}
{%- set fields = outcome_fields() -%}

with

papers as (

    select * from {{ ref('int_outcome_papers') }}

),

grouped as (

    {%- for scope in ['venue', 'category'] %}
        {%- for field in fields %}
            select
                venue,
                {{ 'category' if scope == 'category' else 'cast(null as string) as category' }},
                '{{ scope }}' as prior_scope,
                '{{ field }}' as field,
                count({{ field }}_mean) as papers_reviewed,
                count({{ field }}_mean) filter (where not is_accepted) as papers_not_accepted,
                sum({{ field }}_ss) as within_ss,
                sum({{ field }}_n) - count({{ field }}_mean) as within_df,
                avg({{ field }}_mean) as mean_of_means,
                var_samp({{ field }}_mean) as var_of_means,
                avg(1.0 / nullif({{ field }}_n, 0)) as mean_inverse_n

            from papers
            {%- if scope == 'category' %}
                where category is not null
            {%- endif %}
            group by venue {%- if scope == 'category' %}, category{% endif %}
            having count({{ field }}_mean) > 0
            {%- if not loop.last %}
                union all
            {%- endif %}
        {%- endfor %}
        {%- if scope == 'venue' %}
            union all
        {%- endif %}
    {%- endfor %}

),

judged as (

    select
        *,
        case
            when papers_not_accepted = 0
                then
                    'accepted papers only: the warehouse holds ' || papers_reviewed
                    || ' reviewed papers of ' || venue || coalesce(' / ' || category, '')
                    || ', all accepted; their between-paper spread is truncated by the selection, so a'
                    || ' prior over all submissions cannot be fitted (load every submission, accepted or not)'
            when papers_not_accepted < {{ settings.min_unaccepted }}
                then
                    'too few submissions that were not accepted: ' || papers_not_accepted
                    || ' reviewed (eb_min_unaccepted = {{ settings.min_unaccepted }}), so the prior would be'
                    || ' fitted on the accepted papers'' truncated spread'
            when prior_scope = 'category' and papers_reviewed < {{ settings.min_category_papers }}
                then
                    'category too small for a prior of its own: ' || papers_reviewed
                    || ' reviewed papers (eb_min_category_papers = {{ settings.min_category_papers }});'
                    || ' its papers use the venue''s prior'
            when within_df < 1
                then
                    'no paper has two reviews with a ' || field
                    || ', so the reviewers'' noise cannot be estimated'
        end as fit_reason

    from grouped

),

final as (

    select
        venue,
        category,
        prior_scope,
        field,
        papers_reviewed,
        papers_not_accepted,
        fit_reason,
        fit_reason is null as is_fitted,
        case when fit_reason is null then mean_of_means end as prior_mean,
        case
            when fit_reason is null then greatest(var_of_means - within_ss / within_df * mean_inverse_n, 0)
        end
            as prior_variance,
        case when fit_reason is null then within_ss / within_df end as noise_variance,
        case when fit_reason is null then mean_inverse_n end as mean_inverse_n

    from judged

)

select * from final
