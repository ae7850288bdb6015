{#- The scores marts.ranking_validity tests, in its score_number order: the composite, each
    review field's plain mean, the composite of the posterior means (int_validity_scores). -#}
{% macro validity_score_columns() -%}
    {%- set columns = ['local_top_overall'] -%}
    {%- for field in outcome_fields() -%}
        {%- do columns.append(field ~ '_mean') -%}
    {%- endfor -%}
    {%- do columns.append('posterior_mean') -%}
    {{ return(columns) }}
{%- endmacro %}
