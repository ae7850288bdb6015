{#- A paper's value of one signal, as an aggregate over its review rows: a plain mean of the
    review score for `<score>_mean` (a column of review_score_columns), the population std of
    the ratings for rating_std. The one definition: int_reviews_aggregated, paper_score_history
    and the rank-uncertainty bootstrap (on redrawn reviews) all compute signals with it. -#}
{% macro review_signal(signal) -%}
    {%- if signal == 'rating_std' -%}
        {{ rating_std('rating') }}
    {%- elif signal.endswith('_mean') and signal[:-5] in raw_score_columns() -%}
        avg({{ signal[:-5] }})
    {%- elif execute -%}
        {{ exceptions.raise_compiler_error('no review-level definition for signal ' ~ signal) }}
    {%- else -%}
        {#- parsing: check_settings (on-run-start) names the wrong var before anything runs -#}
        null
    {%- endif -%}
{%- endmacro %}

{#- The signals review_signal defines: `<score>_mean` for every review score, and rating_std. -#}
{% macro review_signals_defined() -%}
    {%- set defined = [] -%}
    {%- for column in raw_score_columns() -%}
        {%- do defined.append(column ~ '_mean') -%}
    {%- endfor -%}
    {%- do defined.append('rating_std') -%}
    {{ return(defined) }}
{%- endmacro %}

{#- The review score a signal is computed from: `<score>` for `<score>_mean`, rating for
    rating_std (its n is the number of reviews that gave that score). -#}
{% macro signal_score(signal) -%}
    {{- 'rating' if signal == 'rating_std' else signal[:-5] -}}
{%- endmacro %}
