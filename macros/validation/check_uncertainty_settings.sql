{#-
    The rank-uncertainty and weight-sensitivity vars, checked by check_settings (on-run-start)
    before any SQL runs: a wrong value fails the build naming the var and what is allowed.
-#}
{% macro check_uncertainty_settings() -%}
    {%- set settings = rank_uncertainty_settings() -%}
    {%- set problems = [] -%}
    {%- for name, var_name in [('replicates', 'rank_uncertainty_replicates'),
        ('weight_draws', 'weight_draws'),
        ('row_budget', 'rank_uncertainty_row_budget'), ('weight_tau_max_papers', 'weight_tau_max_papers')] -%}
        {%- set value = settings[name] -%}
        {%- if value is not number or value is boolean or value != value | int or value < 1 -%}
            {%- do problems.append(var_name ~ ' = ' ~ value ~ ' (a whole number >= 1 is allowed)') -%}
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
{%- endmacro %}
