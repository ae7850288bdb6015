{#-
    The extras this run builds besides the ranking, in the canonical order (macros/parts/parts.sql;
    docs/dbt_project.md "Parts"): an extra counts when it has models and this run selected
    every one of them (dbt's selected_resources), so marts.build_settings and
    marts.build_marts say what the build holds, however it was started (`paperrank build
    --extras ...`, or dbt by hand with or without --select). A partial selection of an extra
    does not count: its marts are then not this build's, and are not published.
    Outside execution (parsing) the list is empty.
-#}
{% macro built_extras() -%}
    {%- if not execute -%}
        {{ return([]) }}
    {%- endif -%}
    {#- per extra: [its models, those this run did not select], in one pass over the graph -#}
    {%- set counts = {} -%}
    {%- for part in parts()[1:] -%}
        {%- do counts.update({part: [0, 0]}) -%}
    {%- endfor -%}
    {%- for node in graph.nodes.values() if node.resource_type == 'model' -%}
        {%- for part in node.tags if part in counts -%}
            {%- do counts.update({part: [
                counts[part][0] + 1,
                counts[part][1] + (0 if node.unique_id in selected_resources else 1)
            ]}) -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- set built = [] -%}
    {%- for part in parts()[1:] if counts[part][0] > 0 and counts[part][1] == 0 -%}
        {%- do built.append(part) -%}
    {%- endfor -%}
    {{ return(built) }}
{%- endmacro %}
