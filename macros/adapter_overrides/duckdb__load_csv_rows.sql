{#- dbt-duckdb's seed loader copies the file with only its delimiter given, so DuckDB guesses
    the quoting from a sample of the first rows: a seed whose first quoted note comes after the
    sample failed to load ("Value with unterminated quote found"). This one copies with the
    dialect the seeds' config declares (dbt_project.yml, `seeds:` +delimiter and +meta.csv: the
    quote and escape characters) and detection off, into the table dbt created from the
    declared column_types; paperrank.core.seed_load runs the same COPY to check a seed before
    dbt starts and an import before it replaces the seed. -#}
{% macro duckdb__load_csv_rows(model, agate_table) %}
    {%- set dialect = (config.get('meta') or {}).get('csv') or {} -%}
    {%- if dialect.get('quote') is none or dialect.get('escape') is none -%}
        {{ exceptions.raise_compiler_error('seed ' ~ model.name ~ ': no CSV dialect declared '
            ~ '(dbt_project.yml, seeds: +meta: {csv: {quote: ..., escape: ...}})') }}
    {%- endif -%}
    {%- set sql -%}
        copy {{ this.render() }} from {{ sql_string(adapter.get_seed_file_path(model)) }} (
            format csv, header true, auto_detect false,
            delimiter {{ sql_string(config.get('delimiter', ',')) }},
            quote {{ sql_string(dialect['quote']) }},
            escape {{ sql_string(dialect['escape']) }}
        )
    {%- endset -%}
    {%- do adapter.add_query(sql, abridge_sql_log=True) -%}
    {{ return(sql) }}
{% endmacro %}
