{#- The settings this build ranked with, one row per venue: every var that changes an output,
    what the data says was used (the labels' prompt hashes, the uncertainty method in force) and
    which extras the build holds besides the ranking (`extras`, macros/parts/built_extras.sql).
    It reads only the ranking's models, so it describes a build of any extras; it depends on
    the ranking's marts, so a partial build (`--select int_papers_ranked+`) rebuilds it too.
    The tests build_settings__* check it against the vars and the marts. -#}
-- depends_on: {{ ref('category_top_n') }}
-- depends_on: {{ ref('category_summary') }}
-- depends_on: {{ ref('excluded_papers') }}
-- depends_on: {{ ref('label_agreement') }}
-- depends_on: {{ ref('paper_score_history') }}
-- depends_on: {{ ref('int_papers_ranked') }}
{%- set signals = ranking_signals() -%}
{%- set label_model = var('label_model') -%}
{%- set settings = rank_uncertainty_settings() %}
{%- set rank_sets = rank_sets_settings() %}
{%- set extras = built_extras() %}

with

papers as (

    select * from {{ ref('int_papers_categorized') }}

),

rankings as (

    select * from {{ ref('paper_rankings') }}

),

weight_set as (

    select * from {{ ref('int_weight_set') }}

),

venues as (

    select distinct venue from papers

),

labels_used as (

    select
        venue,
        {{ sorted_distinct_text('label_prompt_hash') }} as label_prompt_hashes

    from rankings
    group by venue

),

final as (

    select
        {{ sql_string(invocation_id) }} as build_id,
        cast({{ sql_string(run_started_at) }} as {{ timestamp_tz() }}) as built_at,
        venues.venue,
        {{ sql_string(var('taxonomy')) }} as taxonomy,
        {{ sql_string(var('weight_set')) }} as weight_set,
        cast({{ var('top_n') | int }} as integer) as top_n,
        {%- for signal in signals %}
            weight_set.w_{{ signal }} as weight_{{ signal }},
        {%- endfor %}
        {% if label_model is none -%}
            cast(null as string)
        {%- else -%}
            {{ sql_string(label_model) }}
        {%- endif %} as label_model,
        labels_used.label_prompt_hashes,
        {{ sql_string(settings.method) }} as rank_uncertainty_method,
        -- the method auto chose (macros/ranking/rank_uncertainty_method.sql), for a venue with
        -- ranked papers, when the build holds the rank uncertainty
        {% if 'uncertainty' in extras -%}
            case
                when labels_used.venue is not null then {{ sql_string(rank_uncertainty_method()) }}
            end
        {%- else -%}
            cast(null as string)
        {%- endif %} as uncertainty_method,
        cast({{ settings.replicates }} as bigint) as rank_uncertainty_replicates,
        cast({{ settings.seed }} as bigint) as rank_uncertainty_seed,
        cast({{ settings.row_budget }} as bigint) as rank_uncertainty_row_budget,
        cast({{ settings.secure }} as double) as rank_band_secure,
        cast({{ settings.outside }} as double) as rank_band_outside,
        cast({{ settings.weight_draws }} as bigint) as weight_draws,
        cast({{ settings.weight_concentration }} as double) as weight_concentration,
        cast({{ settings.weight_tau_max_papers }} as bigint) as weight_tau_max_papers,
        cast({{ rank_sets.coverage }} as double) as rank_sets_coverage,
        cast({{ rank_sets.draws }} as bigint) as rank_sets_draws,
        cast({{ rank_sets.seed }} as bigint) as rank_sets_seed,
        cast({{ rank_sets.candidates }} as bigint) as rank_sets_candidates,
        cast({{ rank_sets.steps }} as bigint) as rank_sets_steps,
        cast({{ rank_sets.row_budget }} as bigint) as rank_sets_row_budget,
        cast({{ rank_sets.se_cells }} as bigint) as rank_sets_se_cells,
        cast({{ rank_sets.se_buckets }} as bigint) as rank_sets_se_buckets,
        {{ sql_string(extras | join(',')) }} as extras

    from venues
    cross join weight_set
    left join labels_used
        on venues.venue = labels_used.venue

)

select * from final
