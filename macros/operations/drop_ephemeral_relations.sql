{#-
    Run on-run-start: a model that is ephemeral has no relation of its own, but a build from
    before it became ephemeral left its view (or table) behind, which would go on answering
    queries with the old SQL and the settings of that build. Each ephemeral model of this
    project whose name has a relation in the schema dbt would build it in loses that relation;
    nothing else is touched (only the project's own models' names, in its own schemas, and no
    cascade). Committed here: dbt rolls back what its on-run-start hooks leave open. DuckDB
    only: on Spark the intermediate models are tables (dbt_project.yml), none has stopped being
    a relation there.
-#}
{% macro drop_ephemeral_relations() %}
    {%- if not execute or flags.WHICH not in ('build', 'run') or target.type != 'duckdb' -%}
        {{ return('') }}
    {%- endif -%}
    {%- set drops = [] -%}
    {%- for node in graph.nodes.values()
            if node.resource_type == 'model' and node.package_name == project_name
            and node.config.materialized == 'ephemeral' -%}
        {%- set left_behind = adapter.get_relation(
            database=node.database, schema=node.schema, identifier=node.alias) -%}
        {%- if left_behind is not none -%}
            {%- do log('dropping ' ~ left_behind ~ ', left by a build from before ' ~ node.name
                ~ ' was ephemeral', info=true) -%}
            {%- do drops.append('drop ' ~ left_behind.type ~ ' if exists ' ~ left_behind) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if drops -%}
        {%- call statement('drop_ephemeral_relations', auto_begin=true) -%}
            {{ drops | join(';\n') }}
        {%- endcall -%}
        {%- do adapter.commit() -%}
    {%- endif -%}
    {{ return('') }}
{% endmacro %}
