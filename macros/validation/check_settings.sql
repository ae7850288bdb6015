{#-
    Run before anything else (on-run-start): every var that changes the ranking is checked, so
    a typo fails the build naming what is allowed instead of giving a plausible wrong answer.

    - every setting with a rule in dbt_project.yml's setting_rules (top_n, the rank-uncertainty
      and weight-sensitivity vars) holds to it (check_setting_rules; top_n is pasted into SQL
      and tests, so nothing but a whole number may pass);
    - taxonomy, weight_set, venue and label_model are plain strings (they reach SQL quoted);
    - review_score_columns and ranking_signals (project settings) name plain columns and
      signals that macros/ranking/review_signal.sql defines;
    - the rank bands in order (check_uncertainty_settings) and the rank confidence sets' vars
      (rank_sets_settings);
    - the weight set exists in seeds/composite_weights.csv, names only signals of
      ranking_signals() and its absolute weights sum to 1;
    - the taxonomy exists in seeds/taxonomies.csv and, for a build or run of any model past staging, has labels in
      raw.paper_labels (of label_model when it is set); the venue, when set, has accepted papers.

    The seed files are read directly (not the seed tables), so a first build or an edited seed
    is checked against what `dbt seed` is about to load.
-#}
{% macro check_settings() %}
    {%- if not execute -%}
        {{ return('') }}
    {%- endif -%}
    {{- refuse_template_vars() -}}
    {{- check_setting_rules() -}}
    {%- for name in ['taxonomy', 'weight_set', 'venue', 'label_model'] -%}
        {%- set value = var(name) -%}
        {%- if name in ['venue', 'label_model'] and value is none -%}
        {%- elif not (value is string and value | trim != '' and value | length <= 200) -%}
            {{ exceptions.raise_compiler_error(
                'var ' ~ name ~ ' must be a non-empty text of at most 200 characters, got '
                ~ (value[:80] if value is string else value) | tojson) }}
        {%- endif -%}
    {%- endfor -%}

    {%- set columns = raw_score_columns() -%}
    {%- set plain = [] -%}
    {%- for column in (columns if columns is sequence and columns is not string else []) -%}
        {%- if column is string and modules.re.fullmatch('[a-z][a-z0-9_]{0,62}', column) -%}
            {%- do plain.append(column) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if not (columns is sequence and columns is not string and columns | length > 0
        and plain | length == columns | length) -%}
        {{ exceptions.raise_compiler_error(
            'var review_score_columns must be a list of column names of raw.reviews, got '
            ~ (columns | join(', ') if columns is sequence and columns is not string else columns)
            | string | truncate(120)) }}
    {%- endif -%}
    {%- set signals = ranking_signals() -%}
    {%- set defined = review_signals_defined() -%}
    {%- if not (signals is sequence and signals is not string and signals | length > 0
        and signals | reject('string') | list | length == 0
        and signals | reject('in', defined) | list | length == 0
        and signals | unique | list | length == signals | length) -%}
        {{ exceptions.raise_compiler_error(
            'var ranking_signals must list distinct signals of ' ~ defined | join(', ')
            ~ ' (macros/ranking/review_signal.sql), got '
            ~ (signals | join(', ') if signals is sequence and signals is not string else signals)
            | string | truncate(200)) }}
    {%- endif -%}
    {{ check_uncertainty_settings() }}
    {%- do rank_sets_settings() -%}
    {%- set weight_rows = run_query(
        'select weight_set, signal, weight from ' ~ seed_file_relation('composite_weights')
        ~ ' order by 1, 2, 3').rows -%}
    {%- set weight_sets = weight_rows | map(attribute=0) | unique | list -%}
    {%- if var('weight_set') not in weight_sets -%}
        {{ exceptions.raise_compiler_error(
            'unknown weight_set ' ~ var('weight_set') | tojson ~ '; seeds/composite_weights.csv has: '
            ~ weight_sets | join(', ')) }}
    {%- endif -%}
    {%- set chosen = weight_rows | selectattr(0, 'equalto', var('weight_set')) | list -%}
    {%- set unknown = chosen | map(attribute=1) | reject('in', signals) | list -%}
    {%- if unknown -%}
        {{ exceptions.raise_compiler_error(
            'weight_set ' ~ var('weight_set') ~ ' weighs unknown signal(s) ' ~ unknown | join(', ')
            ~ '; signals (macro ranking_signals): ' ~ signals | join(', ')) }}
    {%- endif -%}
    {%- set total = chosen | map(attribute=2) | map('float') | map('abs') | sum -%}
    {%- if (total - 1) | abs > 1e-9 -%}
        {{ exceptions.raise_compiler_error(
            'weight_set ' ~ var('weight_set') ~ ': absolute weights sum to ' ~ total
            ~ ', not 1, so the composite would not be on the scale of a z-score') }}
    {%- endif -%}

    {%- set taxonomies = run_query(
        'select distinct taxonomy from ' ~ seed_file_relation('taxonomies') ~ ' order by 1').columns[0].values() | list -%}
    {%- if var('taxonomy') not in taxonomies -%}
        {{ exceptions.raise_compiler_error(
            'unknown taxonomy ' ~ var('taxonomy') | tojson ~ '; seeds/taxonomies.csv has: '
            ~ taxonomies | join(', ')) }}
    {%- endif -%}

    {#- labels matter to the models past staging; `dbt run -s stg_raw__papers` needs none -#}
    {%- set beyond_staging = [] -%}
    {%- for unique_id in selected_resources if modules.re.match('model[.]paperrank[.](?!stg_)', unique_id) -%}
        {%- do beyond_staging.append(unique_id) -%}
    {%- endfor -%}
    {%- if flags.WHICH in ('build', 'run') and beyond_staging -%}
        {{ _check_raw_settings() }}
    {%- endif -%}
    {{ return('') }}
{% endmacro %}

{#- The settings that need the raw layer: labels for the taxonomy (and model), the venue. -#}
{% macro _check_raw_settings() %}
    {%- set labels = adapter.get_relation(
        database=target.database, schema='raw', identifier='paper_labels') -%}
    {%- set papers = adapter.get_relation(database=target.database, schema='raw', identifier='papers') -%}
    {%- if labels is none or papers is none -%}
        {{ exceptions.raise_compiler_error(
            'the warehouse ' ~ target.path ~ ' has no raw layer; load papers and labels first '
            ~ '(python -m paperrank.ingest ..., python -m paperrank.classify ...)') }}
    {%- endif -%}
    {%- set counts = run_query(
        'select taxonomy, count(distinct paper_id) from ' ~ labels ~ ' group by taxonomy order by 1').rows -%}
    {%- set labelled = counts | map(attribute=0) | list -%}
    {%- if var('taxonomy') not in labelled -%}
        {{ exceptions.raise_compiler_error(
            'taxonomy ' ~ var('taxonomy') ~ ' has no labels in raw.paper_labels, so every mart would be '
            ~ 'empty; taxonomies with labels: ' ~ (labelled | join(', ') or 'none')
            ~ ' (label papers with python -m paperrank.classify run|import --taxonomy ' ~ var('taxonomy') ~ ')') }}
    {%- endif -%}
    {%- if var('label_model') is not none -%}
        {%- set models = run_query(
            'select distinct model from ' ~ labels ~ ' where taxonomy = ' ~ sql_string(var('taxonomy'))
            ~ ' order by 1').columns[0].values() | list -%}
        {%- if var('label_model') not in models -%}
            {{ exceptions.raise_compiler_error(
                'label_model ' ~ var('label_model') | tojson ~ ' has no labels for taxonomy '
                ~ var('taxonomy') ~ '; models with labels: ' ~ models | join(', ')) }}
        {%- endif -%}
    {%- endif -%}
    {%- if var('venue') is not none -%}
        {%- set venues = run_query(
            'select distinct venue from ' ~ papers ~ ' where is_accepted order by 1').columns[0].values()
            | list -%}
        {%- if var('venue') not in venues -%}
            {{ exceptions.raise_compiler_error(
                'venue ' ~ var('venue') | tojson ~ ' has no accepted papers; venues: '
                ~ venues | join(', ')) }}
        {%- endif -%}
    {%- endif -%}
{% endmacro %}
