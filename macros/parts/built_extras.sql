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
    {%- set built = [] -%}
    {%- for part in parts()[1:] -%}
        {%- set found = {'models': 0, 'unselected': 0} -%}
        {%- for node in graph.nodes.values() -%}
            {%- if node.resource_type == 'model' and part in node.tags -%}
                {%- do found.update({'models': found.models + 1}) -%}
                {%- if node.unique_id not in selected_resources -%}
                    {%- do found.update({'unselected': found.unselected + 1}) -%}
                {%- endif -%}
            {%- endif -%}
        {%- endfor -%}
        {%- if found.models > 0 and found.unselected == 0 -%}
            {%- do built.append(part) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(built) }}
{%- endmacro %}
