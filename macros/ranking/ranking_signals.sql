{#- The per-paper signals the composite can weigh (seeds/composite_weights.csv names them), and
    the one list of them: Python (paperrank.core.seeds.ranking_signals) reads it from this file. Adding
    a signal here and computing it in int_reviews_aggregated is all a new weight needs:
    int_papers_categorized carries it, paper_rankings z-scores and weighs it (z_<signal>,
    <signal>_term), and the seed test accepts weights on it. -#}
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
