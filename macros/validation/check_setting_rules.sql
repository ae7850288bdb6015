-- noqa: disable=LT02,LT05
{#-
    Every setting an operator may change (the make variables, paperrank's options) against its
    rule in dbt_project.yml's `setting_rules`: a whole number or a number within its bounds, or
    one of its choices. paperrank checks the same rules, read from the same file, before dbt
    starts (paperrank/pipeline/settings.py); this is the check a direct `dbt build --vars ...`
    meets, on-run-start (check_settings). The rules are the project's: given on the command
    line they are refused, so that no build can loosen its own check.
-#}
{% macro check_setting_rules() -%}
    {%- set given = (invocation_args_dict.get('vars') if invocation_args_dict is defined) or {} -%}
    {%- if given is string -%}
        {%- set given = fromyaml(given) or {} -%}
    {%- endif -%}
    {%- if 'setting_rules' in given -%}
        {{ exceptions.raise_compiler_error(
            'var setting_rules is the project\'s (dbt_project.yml), not a setting: it cannot be '
            ~ 'given on the command line') }}
    {%- endif -%}
    {%- set problems = [] -%}
    {%- for name, rule in var('setting_rules').items() -%}
        {%- set value = var(name) -%}
        {%- if rule.kind == 'choice' -%}
            {%- if value not in rule.choices -%}
                {%- do problems.append(name ~ ' must be one of ' ~ rule.choices | join(', ') ~ ', got '
                    ~ (value if value is number else (value | string)[:80]) | tojson) -%}
            {%- endif -%}
        {%- else -%}
            {%- set is_number = value is number and value is not boolean -%}
            {%- set whole = rule.kind == 'whole' -%}
            {%- set low_ok = is_number and (value > rule.low if rule.get('low_open') else value >= rule.low) -%}
            {%- if not (is_number and (not whole or value == value | int) and low_ok and value <= rule.high) -%}
                {%- do problems.append(name ~ ' must be ' ~ ('a whole number ' if whole else 'a number ')
                    ~ ('> ' if rule.get('low_open') else '>= ') ~ rule.low ~ ' and <= ' ~ rule.high
                    ~ ', got ' ~ (value if value is number else (value | string)[:80]) | tojson) -%}
            {%- endif -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if problems -%}
        {{ exceptions.raise_compiler_error('invalid settings: ' ~ problems | join('; ')) }}
    {%- endif -%}
{%- endmacro %}
