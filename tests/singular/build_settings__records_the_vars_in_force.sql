-- build_settings records the settings in force: the venues whose recorded settings differ from
-- the vars of this run (a build_settings left by a build with other settings, or `dbt test`
-- run with other vars than the build's). A null where a var has a value differs from it too,
-- so the settings' columns need no not_null tests of their own.
{{ config(tags=['build_settings']) }}
{%- set signals = ranking_signals() -%}
{%- set settings = rank_uncertainty_settings() -%}
{%- set rank_sets = rank_sets_settings() -%}
{%- set venue = var('venue') -%}
{%- set label_model = var('label_model') %}

with

recorded as (

    select * from {{ ref('build_settings') }}

),

weight_set as (

    select * from {{ ref('int_weight_set') }}

),

final as (

    select recorded.*
    from recorded
    cross join weight_set
    where
        recorded.taxonomy is distinct from {{ sql_string(var('taxonomy')) }}
        or recorded.weight_set is distinct from {{ sql_string(var('weight_set')) }}
        or recorded.top_n is distinct from {{ var('top_n') | int }}
        {%- for signal in signals %}
            or recorded.weight_{{ signal }} is distinct from weight_set.w_{{ signal }}
        {%- endfor %}
        {%- if venue is not none %}
            or recorded.venue is distinct from {{ sql_string(venue) }}
        {%- endif %}
        or recorded.label_model is distinct from
        {%- if label_model is none %} null {%- else %} {{ sql_string(label_model) }} {%- endif %}
        or recorded.rank_uncertainty_method is distinct from {{ sql_string(settings.method) }}
        or recorded.rank_uncertainty_replicates is distinct from {{ settings.replicates }}
        or recorded.rank_uncertainty_seed is distinct from {{ settings.seed }}
        or recorded.rank_uncertainty_row_budget is distinct from {{ settings.row_budget }}
        or recorded.rank_band_secure is distinct from {{ settings.secure }}
        or recorded.rank_band_outside is distinct from {{ settings.outside }}
        or recorded.weight_draws is distinct from {{ settings.weight_draws }}
        or recorded.weight_concentration is distinct from {{ settings.weight_concentration }}
        or recorded.weight_tau_max_papers is distinct from {{ settings.weight_tau_max_papers }}
        or recorded.rank_sets_coverage is distinct from {{ rank_sets.coverage }}
        or recorded.rank_sets_draws is distinct from {{ rank_sets.draws }}
        or recorded.rank_sets_seed is distinct from {{ rank_sets.seed }}
        or recorded.rank_sets_candidates is distinct from {{ rank_sets.candidates }}
        or recorded.rank_sets_steps is distinct from {{ rank_sets.steps }}
        or recorded.rank_sets_row_budget is distinct from {{ rank_sets.row_budget }}
        or recorded.rank_sets_se_cells is distinct from {{ rank_sets.se_cells }}
        or recorded.rank_sets_se_buckets is distinct from {{ rank_sets.se_buckets }}

)

select * from final
