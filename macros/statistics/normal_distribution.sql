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
