{#-
    dbt run-operation export_category_csvs --target published --args '{out_dir: exports, venue: "ICLR 2026"}'

    Writes one CSV per ranked category of the PUBLISHED warehouse (env PAPERRANK_PUBLISHED_DB,
    opened read-only, so analysts and builds are never blocked): every paper, best first, with
    the columns of export_csv_columns(). The files and a manifest.json (the build's settings,
    row counts, checksums, build time) go to a temporary folder beside `out_dir`, which is then
    swapped into place whole (pipeline/export_files.py): readers see the previous export or the
    new one, never a mix, and a category no longer ranked leaves no stale file.
    Slugs must be plain `a-z0-9-` words, so a category can never write outside out_dir. When
    the rankings hold several venues, `venue` picks one (file names would otherwise collide).
    `bom: true` starts each file with a UTF-8 byte order mark, so Excel reads accents right.
-#}
{% macro export_category_csvs(out_dir='exports', venue=none, bom=false) %}
    {%- set published = env_var('PAPERRANK_PUBLISHED_DB', 'warehouse/published.duckdb') -%}
    {%- do run_query('detach database if exists paperrank_published') -%}
    {%- do run_query('attach ' ~ sql_string(published) ~ ' as paperrank_published (read_only)') -%}
    {%- set rankings = 'paperrank_published.marts.paper_rankings' -%}
    {#- each paper's rank uncertainty (paper_rank_uncertainty, one row per ranked paper) beside it -#}
    {%- set ranked = '(select rankings.*, uncertainty.p_top_n, uncertainty.rank_p05, uncertainty.rank_p95,'
        ~ ' uncertainty.rank_band from ' ~ rankings ~ ' as rankings left join'
        ~ ' paperrank_published.marts.paper_rank_uncertainty as uncertainty'
        ~ ' on rankings.paper_id = uncertainty.paper_id) as ranked' -%}
    {#- one query tells both which venues are ranked and what each category holds -#}
    {%- set listing = run_query(
        'select venue, category_slug, category, count(*) as papers from ' ~ rankings
        ~ ' group by all order by venue, category_slug') -%}
    {%- set venues = listing.columns[0].values() | unique | list -%}
    {%- if venue is none and venues | length > 1 -%}
        {{ exceptions.raise_compiler_error(
            'paper_rankings holds ' ~ venues | length ~ ' venues (' ~ venues | join(', ')
            ~ '); pass --args "{venue: ...}" to export one') }}
    {%- endif -%}
    {%- if venue is not none and venue not in venues -%}
        {{ exceptions.raise_compiler_error(
            'venue ' ~ venue ~ ' has no ranked papers; ranked venues: ' ~ venues | join(', ')) }}
    {%- endif -%}
    {%- set chosen_venue = venue if venue is not none else (venues | first) -%}
    {%- set categories = [] -%}
    {%- for row in listing.rows if row[0] == chosen_venue -%}
        {%- do categories.append(row) -%}
    {%- endfor -%}

    {%- set folder = out_dir | string | trim | replace('\\', '/') -%}
    {%- set folder = folder.rstrip('/') if folder.rstrip('/') != '' else folder -%}
    {%- if folder in ('', '.', '..', '/') -%}
        {{ exceptions.raise_compiler_error(
            'out_dir must name a folder of its own, got ' ~ out_dir | tojson) }}
    {%- endif -%}
    {%- set staging = run_query('select paperrank_staging_folder(' ~ sql_string(folder) ~ ')').rows[0][0] -%}

    {#- a publication always has build_settings; a bare `dbt run` of the rankings may not -#}
    {%- set has_settings = adapter.get_relation(
        database='paperrank_published', schema='marts', identifier='build_settings') is not none -%}
    {%- set settings = run_query(
        'select to_json(s)::varchar from paperrank_published.marts.build_settings as s where venue = '
        ~ sql_string(chosen_venue)) if has_settings else none -%}
    {%- set files = [] -%}
    {%- for row in categories -%}
        {%- set slug = row[1] -%}
        {%- if not modules.re.fullmatch('[a-z0-9]+(-[a-z0-9]+)*', slug or '') -%}
            {{ exceptions.raise_compiler_error(
                'category ' ~ row[2] ~ ' has slug ' ~ slug ~ ', which is not a safe file name') }}
        {%- endif -%}
        {%- do run_query(
            'copy (' ~ export_csv_select(ranked) ~ ' where venue = ' ~ sql_string(chosen_venue)
            ~ ' and category_slug = ' ~ sql_string(slug) ~ ' order by category_rank) to '
            ~ sql_string(staging ~ '/' ~ slug ~ '.csv') ~ ' (format csv, header)') -%}
        {%- do files.append({'file': slug ~ '.csv', 'category': row[2], 'rows': row[3]}) -%}
    {%- endfor -%}
    {%- set manifest = {
        'venue': chosen_venue,
        'published_db': published,
        'build_settings': settings.rows[0][0] if settings and settings.rows else none,
        'columns': export_csv_columns() | map(attribute='name') | list,
        'encoding': 'utf-8-sig' if bom else 'utf-8',
        'files': files,
    } -%}
    {%- set done = run_query(
        'select paperrank_finish_export(' ~ sql_string(staging) ~ ', ' ~ sql_string(folder) ~ ', '
        ~ sql_string(tojson(manifest)) ~ ', ' ~ ('true' if bom else 'false') ~ ')') -%}
    {{ log(done.rows[0][0], info=true) }}
{% endmacro %}

{#- The CSV's columns, in order, in ONE place: the signals and their z-scores come from
    ranking_signals(). `kind` says how a spreadsheet gets the value: text cells are neutralised
    (a leading = + - @ tab or carriage return would start a formula, OWASP "CSV injection"),
    booleans are TRUE/FALSE and numbers stay numbers. -#}
{% macro export_csv_columns() %}
    {%- set columns = [
        {'name': 'category_rank', 'kind': 'number'},
        {'name': 'paper_id', 'kind': 'text'},
        {'name': 'title', 'kind': 'text'},
        {'name': 'title_plain', 'kind': 'text'},
        {'name': 'authors', 'kind': 'text'},
        {'name': 'category', 'kind': 'text'},
        {'name': 'venue', 'kind': 'text'},
        {'name': 'review_count', 'kind': 'number'},
    ] -%}
    {%- for signal in ranking_signals() -%}
        {%- do columns.append({'name': signal, 'kind': 'number'}) -%}
    {%- endfor -%}
    {%- for signal in ranking_signals() -%}
        {%- do columns.append({'name': 'z_' ~ signal, 'kind': 'number'}) -%}
    {%- endfor -%}
    {%- do columns.extend([
        {'name': 'local_top_overall', 'kind': 'number'},
        {'name': 'is_top_n', 'kind': 'boolean'},
        {'name': 'p_top_n', 'kind': 'number'},
        {'name': 'rank_p05', 'kind': 'number'},
        {'name': 'rank_p95', 'kind': 'number'},
        {'name': 'rank_band', 'kind': 'text'},
        {'name': 'category_size', 'kind': 'number'},
        {'name': 'primary_area', 'kind': 'text'},
        {'name': 'status', 'kind': 'text'},
        {'name': 'label_model', 'kind': 'text'},
        {'name': 'label_rationale', 'kind': 'text'},
        {'name': 'forum_url', 'kind': 'text'},
        {'name': 'pdf_url', 'kind': 'text'},
        {'name': 'abstract', 'kind': 'text'},
    ]) -%}
    {{ return(columns) }}
{% endmacro %}

{#- `select <export columns> from relation`, each cell in the form a spreadsheet reads safely. -#}
{% macro export_csv_select(relation) %}
    {%- set cells = [] -%}
    {%- for column in export_csv_columns() -%}
        {%- if column.kind == 'text' -%}
            {%- do cells.append(csv_safe_text(column.name) ~ ' as ' ~ column.name) -%}
        {%- elif column.kind == 'boolean' -%}
            {%- do cells.append("case when " ~ column.name ~ " then 'TRUE' when not " ~ column.name
                ~ " then 'FALSE' end as " ~ column.name) -%}
        {%- else -%}
            {%- do cells.append(column.name) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return('select ' ~ cells | join(', ') ~ ' from ' ~ relation) }}
{% endmacro %}

{#- A text cell a spreadsheet shows as text: one leading apostrophe when it starts with a
    formula trigger (= + - @, their full-width forms, tab, carriage return). -#}
{% macro csv_safe_text(column) -%}
    case when regexp_matches({{ column }}, '^[=+\-@\t\r＝＋－＠]') then '''' || {{ column }} else {{ column }} end
{%- endmacro %}
