{#-
    dbt run-operation register_raw_tables --target spark --args '{location: /abs/raw_export, tables: [papers, reviews]}'

    Registers Parquet folders `<location>/<table>/` as the tables raw.<table> of a Spark
    catalog, so the `raw` sources resolve there as they do in DuckDB. `python -m paperrank.engines
    spark-raw` exports the DuckDB raw layer to those folders and runs this. A table is
    dropped and registered again each time (dropping an external table keeps its files), so
    Spark never serves a stale file listing. `schema: derived` registers paperrank.related's
    tables the same way (derived.<table>).
-#}
{% macro register_raw_tables(location, tables, schema='raw') %}
    {%- if target.type != 'spark' -%}
        {{ exceptions.raise_compiler_error(
            'register_raw_tables is for a Spark target (--target spark), not ' ~ target.type) }}
    {%- endif -%}
    {%- if schema not in ('raw', 'derived') -%}
        {{ exceptions.raise_compiler_error(
            'register_raw_tables registers raw or derived tables, not ' ~ schema) }}
    {%- endif -%}
    {%- do run_query('create database if not exists ' ~ schema) -%}
    {%- for table in tables -%}
        {%- if not modules.re.fullmatch('[a-z_][a-z0-9_]*', table) -%}
            {{ exceptions.raise_compiler_error('raw table name ' ~ table ~ ' is not a plain identifier') }}
        {%- endif -%}
        {%- do run_query('drop table if exists ' ~ schema ~ '.' ~ table) -%}
        {%- do run_query('create table ' ~ schema ~ '.' ~ table ~ ' using parquet location '
            ~ sql_string(location.rstrip('/') ~ '/' ~ table)) -%}
        {{ log('registered ' ~ schema ~ '.' ~ table, info=true) }}
    {%- endfor -%}
{% endmacro %}
