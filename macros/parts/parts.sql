{#- The parts of a build in their canonical order: the ranking, then the extras as
    marts.build_settings.extras lists them (paperrank.core.build_parts.PARTS holds the same list:
    tests/python/test_parts.py builds every extra and reads their order back). dbt_project.yml
    tags each model with one. -#}
{% macro parts() -%}
    {{ return(['ranking', 'uncertainty', 'rank_sets', 'outcomes', 'picks', 'related']) }}
{%- endmacro %}
