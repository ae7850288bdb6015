{#-
    dbt run-operation export_category_csvs --args '{out_dir: exports, venue: "ICLR 2026"}'

    Writes one CSV per ranked category of marts.paper_rankings: every paper, best first, with its
    rank, signals, z-scores, composite, title and links, named `<out_dir>/<category slug>.csv`.
    The folder (and its parents) is created. Slugs come from the taxonomy seed and must be
    plain `a-z0-9-` words, so a category can never write outside out_dir. When the rankings hold
    several venues, `venue` picks one (file names would otherwise collide).
-#}
{% macro export_category_csvs(out_dir='exports', venue=none) %}
    {%- set rankings = ref('paper_rankings') -%}
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
    {%- set categories = [] -%}
    {%- for row in listing.rows if venue is none or row[0] == venue -%}
        {%- do categories.append(row) -%}
    {%- endfor -%}

    {%- set folder = out_dir | string | trim -%}
    {%- if folder == '' -%}
        {{ exceptions.raise_compiler_error('out_dir must not be empty') }}
    {%- endif -%}
    {%- set columns = [
        'category_rank', 'paper_id', 'title', 'category', 'venue', 'review_count',
        'contribution_mean', 'rating_mean', 'confidence_mean', 'soundness_mean', 'rating_std',
        'z_contribution_mean', 'z_rating_mean', 'z_confidence_mean', 'z_soundness_mean',
        'z_rating_std', 'local_top_overall', 'is_top_n', 'category_size', 'primary_area',
        'status', 'label_model', 'forum_url', 'pdf_url',
    ] -%}
    {%- for row in categories -%}
        {%- set slug = row[1] -%}
        {%- if not modules.re.fullmatch('[a-z0-9]+(-[a-z0-9]+)*', slug or '') -%}
            {{ exceptions.raise_compiler_error(
                'category ' ~ row[2] ~ ' has slug ' ~ slug ~ ', which is not a safe file name') }}
        {%- endif -%}
        {%- set target_file = folder.rstrip('/') ~ '/' ~ slug ~ '.csv' -%}
        {%- set where = ' where category_slug = ' ~ sql_string(slug)
            ~ ('' if venue is none else ' and venue = ' ~ sql_string(venue)) -%}
        {%- do write_csv(
            'select ' ~ columns | join(', ') ~ ' from ' ~ rankings ~ where ~ ' order by category_rank',
            target_file) -%}
        {{ log('wrote ' ~ row[3] ~ ' papers of ' ~ row[2] ~ ' to ' ~ target_file, info=true) }}
    {%- endfor -%}
    {{ log('exported ' ~ categories | length ~ ' categories to ' ~ folder, info=true) }}
{% endmacro %}
