{#- The per-paper signals the composite can weigh (seeds/composite_weights.csv names them): the
    `ranking_signals` var of dbt_project.yml, the one list of them, which Python
    (paperrank.core.seeds.ranking_signals) reads from the same file. Adding a signal there (one
    that macros/ranking/review_signal.sql defines) is all a new weight needs:
    int_reviews_aggregated computes it, int_papers_categorized carries it, paper_rankings
    z-scores and weighs it (z_<signal>, <signal>_term), and the seed test accepts weights on it.
    check_settings refuses a list with a signal review_signal cannot compute. -#}
{% macro ranking_signals() -%}
    {{ return(var('ranking_signals')) }}
{%- endmacro %}
