{#- The settings of the outcome models (empirical Bayes prior, posterior draws, validity
    bootstrap), each a dbt var with its default here; macros/validation/check_outcome_settings.sql
    checks them on-run-start, so `| int` below never sees anything but a whole number.

    - eb_min_unaccepted (30): not-accepted papers with reviews a prior needs, so that it is
      fitted on submissions rather than on the accepted papers' truncated spread;
    - eb_min_category_papers (100): reviewed papers a category needs for a prior of its own
      (smaller categories take the venue's);
    - eb_draws (200): posterior draws per paper for expected rank and P(top-N);
    - validity_replicates (200): bootstrap replicates of ranking_validity's intervals;
    - outcomes_seed (2026): the seed of both streams (macros/random/splitmix64.sql);
    - outcomes_method (auto): `resample` (the posterior draws and the validity bootstrap),
      `closed_form` (the posterior's normal closed form, DeLong and Fisher-z intervals), or
      `auto`: each family resamples while its rows fit outcomes_row_budget
      (macros/outcomes/outcome_method.sql);
    - outcomes_row_budget (20000000): the rows `auto` lets a family resample. -#}
{% macro outcome_settings() -%}
    {%- set values = outcome_vars() -%}
    {{ return({
        'min_unaccepted': values.eb_min_unaccepted | int,
        'min_category_papers': values.eb_min_category_papers | int,
        'draws': values.eb_draws | int,
        'replicates': values.validity_replicates | int,
        'seed': values.outcomes_seed | int,
        'method': values.outcomes_method,
        'row_budget': values.outcomes_row_budget | int,
    }) }}
{%- endmacro %}

{#- The vars as given (or their defaults), for the check. -#}
{% macro outcome_vars() -%}
    {{ return({
        'eb_min_unaccepted': var('eb_min_unaccepted', 30),
        'eb_min_category_papers': var('eb_min_category_papers', 100),
        'eb_draws': var('eb_draws', 200),
        'validity_replicates': var('validity_replicates', 200),
        'outcomes_seed': var('outcomes_seed', 2026),
        'outcomes_method': var('outcomes_method', 'auto'),
        'outcomes_row_budget': var('outcomes_row_budget', 20000000),
    }) }}
{%- endmacro %}

{#- The review fields a prior is fitted for, in stream order (a draw's position uses the index). -#}
{% macro outcome_fields() -%}
    {{ return(['rating', 'confidence', 'soundness', 'contribution', 'presentation']) }}
{%- endmacro %}
