{#- The label model the derived tables key their results by: the label_model var as a quoted
    SQL text, '' for the latest label of any model (paperrank.related.refresh writes the same). -#}
{% macro related_label_model() -%}
    {{ sql_string(var('label_model') if var('label_model') is not none else '') }}
{%- endmacro %}
