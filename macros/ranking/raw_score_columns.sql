{#- The review form's score columns (raw.reviews, stg_raw__reviews): the `review_score_columns`
    var of dbt_project.yml, the one list of them. The ranking signals are their means
    (`<column>_mean`, macros/ranking/review_signal.sql) and the rating's spread; the bootstrap
    redraws whole reviews of these columns. -#}
{% macro raw_score_columns() -%}
    {{ return(var('review_score_columns')) }}
{%- endmacro %}
