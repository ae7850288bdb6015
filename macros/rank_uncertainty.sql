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

{#-
    The method that runs: `bootstrap` or `normal` as set, or for `auto` the bootstrap while its
    rows (reviews of ranked papers x replicates) fit in rank_uncertainty_row_budget, else
    `normal`. It counts from paper_rankings, so the calling model must ref it; outside
    execution (parsing) `auto` reads as `bootstrap`.
-#}
{% macro rank_uncertainty_method() -%}
    {%- set settings = rank_uncertainty_settings() -%}
    {%- if settings.method != 'auto' -%}
        {{ return(settings.method) }}
    {%- endif -%}
    {%- if not execute -%}
        {{ return('bootstrap') }}
    {%- endif -%}
    {%- set counted = run_query('select coalesce(sum(review_count), 0) from ' ~ ref('paper_rankings')) -%}
    {%- set rows = counted.columns[0].values()[0] * settings.replicates -%}
    {{ return('bootstrap' if rows <= settings.row_budget else 'normal') }}
{%- endmacro %}

{#-
    The standard normal CDF, Phi(x), by Zelen & Severo's approximation (Abramowitz & Stegun
    26.2.17; absolute error below 7.5e-8), in portable SQL: engines lack erf.
-#}
{% macro normal_cdf(x) -%}
    {%- set t = '(1.0 / (1.0 + 0.2316419 * abs(' ~ x ~ ')))' -%}
    (case
        when ({{ x }}) >= 8 then 1.0
        when ({{ x }}) <= -8 then 0.0
        else
            (case when ({{ x }}) >= 0 then 1.0 else 0.0 end)
            + (case when ({{ x }}) >= 0 then -1.0 else 1.0 end)
            * 0.3989422804014327 * exp(-0.5 * ({{ x }}) * ({{ x }})) * {{ t }}
            * (0.319381530 + {{ t }} * (-0.356563782 + {{ t }} * (1.781477937
                + {{ t }} * (-1.821255978 + {{ t }} * 1.330274429))))
    end)
{%- endmacro %}

{#- P(score > cutoff) for a score normal around `score` with standard error `se`; with se 0
    it is 1 above the cutoff, 0 below and 1/2 on it. -#}
{% macro normal_tail(score, cutoff, se) -%}
    case
        when {{ se }} > 0 then {{ normal_cdf('(' ~ score ~ ' - ' ~ cutoff ~ ') / ' ~ se) }}
        when {{ score }} > {{ cutoff }} then 1.0
        when {{ score }} < {{ cutoff }} then 0.0
        else 0.5
    end
{%- endmacro %}

{#- d/dt of normal_tail(score, t, se) with the sign turned: the normal density at
    (score - t) / se, over se (0 when se is 0: a certain score has no slope). Newton's step
    for the normal method's cutoff divides by its sum. -#}
{% macro normal_density_over_se(score, cutoff, se) -%}
    case
        when {{ se }} > 0
            then 0.3989422804014327 * exp(-0.5 * (({{ score }} - {{ cutoff }}) / {{ se }})
                * (({{ score }} - {{ cutoff }}) / {{ se }})) / {{ se }}
        else 0.0
    end
{%- endmacro %}

{#- sum(x) for doubles of magnitude below 1e6 that does not depend on row order or thread
    count: each value is rounded to 12 decimals and the decimals are summed exactly. -#}
{% macro order_free_sum(x) -%}
    cast(sum(cast({{ x }} as decimal(18, 12))) as double)
{%- endmacro %}

{% macro order_free_avg(x) -%}
    ({{ order_free_sum(x) }} / count({{ x }}))
{%- endmacro %}
