{#-
    Settings of the rank confidence sets (dbt vars, with their defaults here), checked before
    any SQL is written: a wrong value fails naming the var and what is allowed.

      rank_sets_coverage    nominal coverage 1 - alpha of every set (0.95), strictly in (0, 1)
      rank_sets_draws       parametric bootstrap draws B (1000), 10..100000
      rank_sets_seed        seed of the normal draws (2026), 0..2^63 - 1
      rank_sets_candidates  K: the K highest and K lowest standardised draws of each category
                            and draw are the partners every paper is compared with exactly (4);
                            the others enter through an upper bound (macros/rank_sets/)
      rank_sets_steps       step-down steps unrolled (3; the real data converges in 3, not 2);
                            fewer than needed is conservative (a warning test says so)
      rank_sets_row_budget  at most this many draw rows (papers x B, 2M) on the exact path:
                            categories are taken smallest first while they fit; the others take
                            the scaled path (int_rank_set_categories)
      rank_sets_se_cells    the scaled path's marginal critical values: one per cell of this
                            many quantiles of a category's standard errors (32)
      rank_sets_se_buckets  the scaled path's pair counts: partners grouped into this many
                            quantiles of se, each taken at its largest se (8; more: tighter,
                            slower)
-#}
{% macro rank_sets_settings(overrides=none) -%}
    {%- set defaults = {'coverage': 0.95, 'draws': 1000, 'seed': 2026, 'candidates': 4, 'steps': 3,
        'row_budget': 2000000, 'se_cells': 32, 'se_buckets': 8} -%}
    {%- if rendered_for_lint() -%}
        {#- sqlfluff has no dbt vars: the defaults, each unrolled loop (candidate slots and their
            pairs, step-down steps, se buckets) written twice (macros/lint/rendered_for_lint.sql) -#}
        {%- do defaults.update({'candidates': 2, 'steps': 2, 'se_buckets': 2}) -%}
        {{ return(defaults) }}
    {%- endif -%}
    {%- set settings = {} -%}
    {%- for name, default in defaults.items() -%}
        {%- do settings.update({name: var('rank_sets_' ~ name, default)}) -%}
    {%- endfor -%}
    {%- if overrides is not none -%}
        {%- do settings.update(overrides) -%}
    {%- endif -%}
    {%- set problems = [] -%}
    {%- set coverage = settings.coverage -%}
    {%- if coverage is not number or coverage is boolean or coverage <= 0 or coverage >= 1 -%}
        {%- do problems.append('rank_sets_coverage = ' ~ coverage
            ~ ' (a probability strictly between 0 and 1 is allowed)') -%}
    {%- endif -%}
    {%- for name, low, high in [('draws', 10, 100000), ('candidates', 1, 100), ('steps', 1, 50),
            ('row_budget', 1, 10000000000), ('se_cells', 1, 1000), ('se_buckets', 1, 100),
            ('seed', 0, 9223372036854775807)] -%}
        {%- set value = settings[name] -%}
        {%- if value is not number or value is boolean or value != value | int
            or value < low or value > high -%}
            {%- do problems.append('rank_sets_' ~ name ~ ' = ' ~ value ~ ' (a whole number from '
                ~ low ~ ' to ' ~ high ~ ' is allowed)') -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if problems | length > 0 -%}
        {{ exceptions.raise_compiler_error('invalid rank-set settings: ' ~ problems | join('; ')) }}
    {%- endif -%}
    {{ return(settings) }}
{%- endmacro %}
