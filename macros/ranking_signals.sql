{#- The per-paper signals the composite can weigh (seeds/composite_weights.csv names them).
    Adding a signal here and computing it in int_reviews_aggregated is all a new weight needs.
    This list is the only one: Python (ingest.method.ranking_signals) reads it from this file. -#}
{% macro ranking_signals() -%}
    {{ return([
        'contribution_mean',
        'rating_mean',
        'confidence_mean',
        'soundness_mean',
        'presentation_mean',
        'rating_std',
    ]) }}
{%- endmacro %}
