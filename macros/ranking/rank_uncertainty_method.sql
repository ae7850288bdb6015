{#-
    The method that runs: `bootstrap` or `normal` as set, or for `auto` the bootstrap while its
    rows (reviews of ranked papers x replicates) fit in rank_uncertainty_row_budget, else
    `normal`. It counts from int_papers_ranked, so the calling model must ref it; outside
    execution (parsing) `auto` reads as `bootstrap`.
-#}
{% macro rank_uncertainty_method() -%}
    {%- set settings = rank_uncertainty_settings() -%}
    {%- if settings.method != 'auto' -%}
        {{ return(settings.method) }}
    {%- endif -%}
    {%- if not execute -%}
        {{ return('bootstrap') }}
    {%- endif -%}
    {%- set counted = run_query('select coalesce(sum(review_count), 0) from ' ~ ref('int_papers_ranked')) -%}
    {%- set rows = counted.columns[0].values()[0] * settings.replicates -%}
    {{ return('bootstrap' if rows <= settings.row_budget else 'normal') }}
{%- endmacro %}
