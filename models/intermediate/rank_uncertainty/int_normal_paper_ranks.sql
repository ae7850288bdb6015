{#-
    The normal method's rank uncertainty (empty when rank_uncertainty_method is bootstrap).
    A paper's composite is taken as normal around its point value s with its standard error se
    (int_normal_composite_errors); with its category's cutoff t (int_normal_top_n_cutoffs),
    P(top-N) = Phi((s - t) / se), rounded to 6 decimals (Phi's approximation is good to 1e-7);
    category_rank_stability tests that the P sum to min(N, size).
    Rank interval: the rank the paper would take if its composite moved to s -/+ 1.645 se with
    the other papers at their point composites.
-#}
{%- set top_n = var('top_n') %}

with

papers as (

    select * from {{ ref('int_normal_composite_errors') }}
    {%- if var('rank_uncertainty_method') == 'bootstrap' %}
        where false
    {%- endif %}

),

cutoffs as (

    select * from {{ ref('int_normal_top_n_cutoffs') }}

),

probabilities as (

    select
        papers.*,
        cutoffs.cutoff,
        case
            when papers.category_size <= {{ top_n }} then 1.0
            else
                round(
                    {{ normal_tail('papers.local_top_overall', 'cutoffs.cutoff', 'papers.composite_se') }}, 6
                )
        end as p_top_n

    from papers
    inner join cutoffs
        on
            papers.venue = cutoffs.venue
            and papers.category = cutoffs.category

),

{{ normal_rank_interval_ctes('interval_ends', 'papers', 'local_top_overall', 'composite_se',
    'category_rank') }}

final as (

    select
        probabilities.venue,
        probabilities.category,
        probabilities.paper_id,
        probabilities.local_top_overall,
        probabilities.composite_se,
        probabilities.cutoff,
        probabilities.p_top_n,
        probabilities.category_rank as rank_p50,
        cast(probabilities.category_rank as double) as rank_mean,
        interval_ends.rank_low as rank_p05,
        interval_ends.rank_high as rank_p95

    from probabilities
    inner join interval_ends
        on probabilities.paper_id = interval_ends.paper_id

)

select * from final
