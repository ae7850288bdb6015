{#- Engine shim (dbt-utils' dispatch): default__ is the DuckDB form, the one the models are
    linted in; spark__ is the form dbt-spark needs. -#}

{#- A relation (for `from`) of a seed's CSV file as it is on disk, every column text: the
    settings check reads the files `dbt seed` is about to load. -#}
{% macro seed_file_relation(name) -%}
    {{ return(adapter.dispatch('seed_file_relation', 'paperrank')(name)) }}
{%- endmacro %}

{% macro default__seed_file_relation(name) -%}
    {{ return('read_csv(' ~ sql_string(_seed_file(name)) ~ ', header = true, all_varchar = true)') }}
{%- endmacro %}

{#- Spark reads a CSV file through a temporary view (every column a string by default). -#}
{% macro spark__seed_file_relation(name) -%}
    {%- set view = 'seed_file_' ~ name -%}
    {%- do run_query('create or replace temporary view ' ~ view ~ " using csv options (path "
        ~ sql_string(_seed_file(name)) ~ ", header 'true', multiLine 'true', escape '\"')") -%}
    {{ return(view) }}
{%- endmacro %}

{#- Path of a seed's CSV file, from the project graph. -#}
{% macro _seed_file(name) %}
    {%- for node in graph.nodes.values() if node.resource_type == 'seed' and node.name == name -%}
        {{ return(node.root_path ~ '/' ~ node.original_file_path) }}
    {%- endfor -%}
    {{ exceptions.raise_compiler_error('seed ' ~ name ~ ' not found in the project') }}
{% endmacro %}
