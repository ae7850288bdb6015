{#- The review form's score columns (stg_raw__reviews), the one list of them: the ranking
    signals are their means (`<column>_mean`, macros/ranking/review_signal.sql) and the rating's
    spread; the bootstrap redraws whole reviews of these columns. -#}
{% macro raw_score_columns() -%}
    {{ return(['contribution', 'rating', 'confidence', 'soundness', 'presentation']) }}
{%- endmacro %}
