{#-
    Settings of the rank-uncertainty and weight-sensitivity models (dbt vars), checked before
    any SQL runs: a wrong value fails the build naming the var and what is allowed.
-#}
{% macro rank_uncertainty_settings() -%}
    {%- if exceptions is not defined -%}
        {#- sqlfluff's jinja templater (`make lint`) has no dbt vars: lint with the defaults -#}
        {{ return({'replicates': 1000, 'seed': 2026, 'method': 'bootstrap', 'row_budget': 40000000,
            'secure': 0.9, 'outside': 0.1, 'weight_draws': 100, 'weight_concentration': 50,
            'weight_tau_max_papers': 1000}) }}
    {%- endif -%}
    {{- refuse_template_vars() -}}  {#- before var(): these are rendered at parse time too -#}
    {%- set settings = {
        'replicates': var('rank_uncertainty_replicates'),
        'seed': var('rank_uncertainty_seed'),
        'method': var('rank_uncertainty_method'),
        'row_budget': var('rank_uncertainty_row_budget'),
        'secure': var('rank_band_secure'),
        'outside': var('rank_band_outside'),
        'weight_draws': var('weight_draws'),
        'weight_concentration': var('weight_concentration'),
        'weight_tau_max_papers': var('weight_tau_max_papers'),
    } -%}
    {%- set problems = [] -%}
    {%- for name in ('replicates', 'weight_draws', 'row_budget', 'weight_tau_max_papers') -%}
        {%- set value = settings[name] -%}
        {%- if value is not number or value is boolean or value != value | int or value < 1 -%}
            {%- do problems.append(name ~ ' = ' ~ value ~ ' (a whole number >= 1 is allowed)') -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if settings.replicates is number and settings.replicates > 100000 -%}
        {%- do problems.append('rank_uncertainty_replicates = ' ~ settings.replicates
            ~ ' (at most 100000 is allowed)') -%}
    {%- endif -%}
    {%- set seed = settings.seed -%}
    {%- if seed is not number or seed is boolean or seed != seed | int or seed < 0
        or seed > 9223372036854775807 -%}
        {%- do problems.append('rank_uncertainty_seed = ' ~ seed
            ~ ' (a whole number from 0 to 2^63 - 1 is allowed)') -%}
    {%- endif -%}
    {%- if settings.method not in ('bootstrap', 'normal', 'auto') -%}
        {%- do problems.append('rank_uncertainty_method = ' ~ settings.method
            ~ " (allowed: 'bootstrap', 'normal', 'auto')") -%}
    {%- endif -%}
    {%- for name in ('secure', 'outside') -%}
        {%- if settings[name] is not number or settings[name] is boolean
            or settings[name] < 0 or settings[name] > 1 -%}
            {%- do problems.append('rank_band_' ~ name ~ ' = ' ~ settings[name]
                ~ ' (a probability from 0 to 1 is allowed)') -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if problems | length == 0 and settings.outside >= settings.secure -%}
        {%- do problems.append('rank_band_outside = ' ~ settings.outside
            ~ ' must be below rank_band_secure = ' ~ settings.secure) -%}
    {%- endif -%}
    {%- set concentration = settings.weight_concentration -%}
    {%- if concentration is not number or concentration is boolean or concentration <= 0 -%}
        {%- do problems.append('weight_concentration = ' ~ concentration
            ~ ' (a positive number is allowed)') -%}
    {%- endif -%}
    {%- if problems | length > 0 -%}
        {{ exceptions.raise_compiler_error('invalid rank-uncertainty settings: '
            ~ problems | join('; ')) }}
    {%- endif -%}
    {{ return(settings) }}
{%- endmacro %}
