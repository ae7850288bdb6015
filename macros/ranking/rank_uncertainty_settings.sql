{#- The settings of the rank-uncertainty and weight-sensitivity models, the dbt vars by short
    name. check_settings (on-run-start) has refused any wrong value before a model compiles. -#}
{% macro rank_uncertainty_settings() -%}
    {#- before var(): models read these at parse time, before on-run-start's check -#}
    {{- refuse_template_vars() -}}
    {{ return({
        'replicates': var('rank_uncertainty_replicates'),
        'seed': var('rank_uncertainty_seed'),
        'method': var('rank_uncertainty_method'),
        'row_budget': var('rank_uncertainty_row_budget'),
        'secure': var('rank_band_secure'),
        'outside': var('rank_band_outside'),
        'weight_draws': var('weight_draws'),
        'weight_concentration': var('weight_concentration'),
        'weight_tau_max_papers': var('weight_tau_max_papers'),
    }) }}
{%- endmacro %}
