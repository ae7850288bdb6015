{#-
    The normal method's cutoffs (empty when rank_uncertainty_method is bootstrap): per
    category the cutoff t at which the expected number of papers above it is N, by bracketed
    Newton steps over the papers that can be near it (macros/statistics/normal_top_n_cutoff_ctes.sql,
    which says how and to what precision; the posterior's closed form uses the same macro).
-#}

with

papers as (

    select * from {{ ref('int_normal_composite_errors') }}
    {%- if var('rank_uncertainty_method') == 'bootstrap' %}
        where false
    {%- endif %}

),

{{ normal_top_n_cutoff_ctes('cutoffs', 'papers', var('top_n'),
    'local_top_overall', 'composite_se', 'category_rank') }}

final as (

    select * from cutoffs

)

select * from final
