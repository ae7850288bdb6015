{#- A paper's value of one ranking signal, as an aggregate over its review rows: a plain mean
    of the review column for `<column>_mean`, the population std of the ratings for
    rating_std. These are the definitions of int_reviews_aggregated; the rank-uncertainty
    bootstrap recomputes the signals of redrawn reviews with them. -#}
{% macro review_signal(signal) -%}
    {%- if signal == 'rating_std' -%}
        {{ rating_std('rating') }}
    {%- elif signal.endswith('_mean') -%}
        avg({{ signal[:-5] }})
    {%- else -%}
        {{ exceptions.raise_compiler_error('no review-level definition for signal ' ~ signal) }}
    {%- endif -%}
{%- endmacro %}
