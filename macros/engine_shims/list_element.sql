{#- Engine shim (dbt-utils' dispatch): default__ is the DuckDB form, the one the models are
    linted in; spark__ is the form dbt-spark needs. -#}

{#- The i-th element (from 1) of a list, null when the list is shorter. -#}
{% macro list_element(items, i) -%}
    {{ return(adapter.dispatch('list_element', 'paperrank')(items, i)) }}
{%- endmacro %}

{% macro default__list_element(items, i) -%}
    {{ items }}[{{ i | int }}]
{%- endmacro %}

{% macro spark__list_element(items, i) -%}
    try_element_at({{ items }}, {{ i | int }})
{%- endmacro %}
