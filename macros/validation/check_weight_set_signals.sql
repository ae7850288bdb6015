{#-
    Run on-run-start after check_settings: the weight set in force must weigh only signals the
    reviews of every venue being ranked have. A venue whose form lacks a signal (ICLR 2018 has
    rating and confidence only) would otherwise rank with that signal's z-score at 0 for every
    paper: a plausible ranking on fewer signals than its weights say, with every test green.

    A signal's review field is the part of its name before the first '_' (contribution_mean ->
    contribution, rating_std -> rating). The failure names the signal(s), the venue, the
    venue's review-form profile when one matches its name, and the weight sets whose signals
    that venue's reviews all have.
-#}
{% macro check_weight_set_signals() %}
    {%- if not execute or flags.WHICH not in ('build', 'run') -%}
        {{ return('') }}
    {%- endif -%}
    {%- set reviews = adapter.get_relation(database=target.database, schema='raw', identifier='reviews') -%}
    {%- set papers = adapter.get_relation(database=target.database, schema='raw', identifier='papers') -%}
    {%- if reviews is none or papers is none -%}
        {{ return('') }}  {#- check_settings names a missing raw layer -#}
    {%- endif -%}
    {%- set fields = ['rating', 'confidence', 'soundness', 'contribution', 'presentation'] -%}
    {%- set venue = var('venue') -%}
    {%- set present = run_query(
        'select p.venue' ~ _present_columns(fields)
        ~ ' from ' ~ papers ~ ' as p inner join ' ~ reviews ~ ' as r on r.paper_id = p.paper_id'
        ~ ' where p.is_accepted'
        ~ (' and p.venue = ' ~ sql_string(venue) if venue is not none else '')
        ~ ' group by p.venue order by p.venue').rows -%}
    {%- set weight_rows = run_query(
        'select weight_set, signal, weight from ' ~ seed_file_relation('composite_weights')
        ~ ' order by 1, 2').rows -%}
    {%- set weighted = [] -%}
    {%- for weight in weight_rows if weight[2] | float != 0 -%}
        {%- do weighted.append(weight) -%}
    {%- endfor -%}
    {%- set chosen = weighted | selectattr(0, 'equalto', var('weight_set')) | list -%}
    {%- for row in present -%}
        {%- set has = [] -%}
        {%- for name in fields -%}
            {%- if row[loop.index] -%}
                {%- do has.append(name) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- set lacking = [] -%}
        {%- set lacking_fields = [] -%}
        {%- for weight in chosen if weight[1].split('_')[0] not in has -%}
            {%- do lacking.append(weight[1] ~ ' (weight ' ~ weight[2] ~ ')') -%}
            {%- do lacking_fields.append(weight[1].split('_')[0]) -%}
        {%- endfor -%}
        {%- if lacking -%}
            {%- set fitting = [] -%}
            {%- for name in weight_rows | map(attribute=0) | unique -%}
                {%- set needs = [] -%}
                {%- for weight in weighted if weight[0] == name and weight[1].split('_')[0] not in has -%}
                    {%- do needs.append(weight[1]) -%}
                {%- endfor -%}
                {%- if not needs -%}
                    {%- do fitting.append(name) -%}
                {%- endif -%}
            {%- endfor -%}
            {{ exceptions.raise_compiler_error(
                'weight_set ' ~ var('weight_set') ~ ' weighs ' ~ lacking | join(', ')
                ~ ', which venue ' ~ row[0] | tojson ~ ' lacks: none of its accepted papers\' reviews has a '
                ~ lacking_fields | unique | join(' or ') ~ ' score'
                ~ ' (its reviews have ' ~ (has | join(', ') or 'no scores') ~ _profile_note(row[0]) ~ ')'
                ~ '; ranking it would count the missing signal as 0 for every paper. Weight sets that fit '
                ~ row[0] | tojson ~ ': ' ~ (fitting | join(', ') or 'none; add one to seeds/composite_weights.csv')
                ~ ' (pass it as WEIGHT_SET= or --vars weight_set)') }}
        {%- endif -%}
    {%- endfor -%}
    {{ return('') }}
{% endmacro %}

{#- ", bool_or(r.<field> is not null)" for each review field, in order. -#}
{% macro _present_columns(fields) -%}
    {%- for name in fields -%}, bool_or(r.{{ name }} is not null){%- endfor -%}
{%- endmacro %}

{#- "; its review form, profile P ..., has no <signals>" when a profile matches the venue's
    name squashed to letters and digits, as the loaders find it ("ICLR 2018" -> iclr2018). -#}
{% macro _profile_note(venue_name) -%}
    {%- set profile = modules.re.sub('[^a-z0-9]', '', venue_name | lower) -%}
    {%- set rows = run_query(
        'select signal from ' ~ seed_file_relation('review_form_profiles')
        ~ ' where profile = ' ~ sql_string(profile) ~ " and coalesce(form_field, '') = '' order by 1").rows -%}
    {%- if rows -%}
        {{- '; its review form, profile ' ~ profile ~ ' of seeds/review_form_profiles.csv, has no '
            ~ rows | map(attribute=0) | join(', ') -}}
    {%- endif -%}
{%- endmacro %}
