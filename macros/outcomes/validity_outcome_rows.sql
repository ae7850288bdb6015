{#- The one rule of which (group, paper) pairs an outcome is defined for, as a query over a
    relation of int_validity_scores' layout: one row per group, outcome and paper whose
    outcome is not null (outcome_accepted, outcome_top_tier, citations), with the outcome as
    `positive` (1/0, binary outcomes) or `citations` (a double), and the given columns carried.
    With `groups` (int_validity_groups), only the kept groups' rows, each with its
    sample_group first. int_validity_groups counts these rows into groups; the mart and the
    bootstrap compute their metrics on them. -#}
{% macro validity_outcome_rows(relation, columns=[], groups=none) -%}
{%- set outcomes = [
    ('accepted', 'outcome_accepted', 'outcome_accepted', 'cast(null as double)'),
    ('top_tier', 'outcome_top_tier', 'outcome_top_tier', 'cast(null as double)'),
    ('citations', 'citations', 'cast(null as integer)', 'cast(' ~ relation ~ '.citations as double)'),
] -%}
{%- set carried = [groups ~ '.sample_group'] if groups is not none else [] -%}
{%- set carried = carried + [relation ~ '.venue', relation ~ '.category', relation ~ '.population'] -%}
{%- set scores = [] -%}
{%- for column in columns -%}
{%- do scores.append(relation ~ '.' ~ column) -%}
{%- endfor -%}
{%- for outcome, defined_by, positive, citations in outcomes -%}
{%- set kept -%}
{%- if groups is not none -%}
inner join {{ groups }}
on {{ relation }}.venue = {{ groups }}.venue
and coalesce({{ relation }}.category, '') = coalesce({{ groups }}.category, '')
and {{ relation }}.population = {{ groups }}.population
and {{ groups }}.outcome = '{{ outcome }}'
{%- endif -%}
{%- endset %}
    select
        {{ carried | join(', ') }},
        '{{ outcome }}' as outcome,
        {{ relation }}.paper_id,
        {{ positive }} as positive,
        {{ citations }} as citations{{ (', ' ~ scores | join(', ')) if scores }}
    from {{ relation }}
    {{ kept }}
    where {{ relation }}.{{ defined_by }} is not null
{%- if not loop.last %}
    union all
{%- endif %}
{%- endfor %}
{%- endmacro %}
