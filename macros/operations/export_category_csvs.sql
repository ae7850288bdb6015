{#-
    dbt run-operation export_category_csvs --target published --args '{out_dir: exports, venue: "ICLR 2026"}'

    Ops' door to the category CSVs of the PUBLISHED warehouse (PAPERRANK_PUBLISHED_DB, read
    read-only): one CSV per ranked category, every paper best first, and a manifest.json, swapped
    into place whole. The export itself is paperrank.publish.category_csvs (docs/exports.md), the
    one implementation `make export` and `make rank` run too; this macro calls it through the SQL
    function the project's dbt-duckdb plugin registers (paperrank/publish/dbt_plugin.py).
    `venue` picks one venue when the rankings hold several; `bom: true` starts each file with a
    UTF-8 byte order mark, so Excel reads accents right.
-#}
{% macro export_category_csvs(out_dir='exports', venue=none, bom=false) %}
    {%- set venue_ok = venue is none or venue is string -%}
    {%- if out_dir is not string or not venue_ok or bom not in (true, false) -%}
        {{ exceptions.raise_compiler_error(
            'export_category_csvs takes out_dir (text), venue (text) and bom (true or false)') }}
    {%- endif -%}
    {%- set done = run_query(
        'select paperrank_export_categories(' ~ sql_string(out_dir) ~ ', '
        ~ sql_string(venue if venue is not none else '') ~ ', ' ~ ('true' if bom else 'false') ~ ')') -%}
    {{ log(done.rows[0][0], info=true) }}
{% endmacro %}
