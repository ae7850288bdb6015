{#-
    The method one family of outcome models runs: `resample` or `closed_form` as
    outcomes_method sets it, or for `auto` resampling while the family's rows fit
    outcomes_row_budget, else the closed form. The rows:
    - `posterior`: the posterior draws, at most ranked papers x review fields x eb_draws (only
      the fitted papers and the fields the weight set weighs are drawn; the calling model must
      ref int_papers_ranked);
    - `validity`: the bootstrap's resampled rows, (paper, outcome) pairs of the validity
      scores x validity_replicates (the calling model must ref int_validity_scores).
    Outside execution (parsing), and in a unit test (whose refs are its fixtures, not tables),
    `auto` reads as `resample`. Each model of a family asks the same
    question of the same tables, so they agree within a run.
-#}
{% macro outcome_method(family) -%}
    {%- set settings = outcome_settings() -%}
    {%- if settings.method != 'auto' -%}
        {{ return(settings.method) }}
    {%- endif -%}
    {%- if not execute or model.resource_type == 'unit_test' -%}
        {{ return('resample') }}
    {%- endif -%}
    {%- if family == 'posterior' -%}
        {%- set sql -%}
            select count(*) * {{ outcome_fields() | length }} * {{ settings.draws }}
            from {{ ref('int_papers_ranked') }}
        {%- endset -%}
    {%- elif family == 'validity' -%}
        {%- set sql -%}
            select (
                count(outcome_accepted) + count(outcome_top_tier) + count(citations)
            ) * {{ settings.replicates }}
            from {{ ref('int_validity_scores') }}
        {%- endset -%}
    {%- else -%}
        {{ exceptions.raise_compiler_error('outcome_method: unknown family ' ~ family) }}
    {%- endif -%}
    {%- set rows = run_query(sql).columns[0].values()[0] -%}
    {{ return('resample' if rows <= settings.row_budget else 'closed_form') }}
{%- endmacro %}
