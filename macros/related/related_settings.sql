{#- The related extra's vars (dbt_project.yml), checked on-run-start by check_related_settings:
    related_papers is pasted into SQL, so only a whole number in range may pass;
    label_audit_threshold is a probability in (0, 1]. paperrank.pipeline.settings checks the same
    ranges before dbt starts. -#}
{% macro check_related_settings() %}
    {%- if not execute -%}
        {{ return('') }}
    {%- endif -%}
    {%- set k = var('related_papers') -%}
    {%- if not (k is integer or (k is string and modules.re.fullmatch('[0-9]{1,3}', k)))
        or k | int < 1 or k | int > 100 -%}
        {{ exceptions.raise_compiler_error(
            'var related_papers must be a whole number >= 1 and <= 100, got '
            ~ (k[:80] if k is string else k) | tojson) }}
    {%- endif -%}
    {%- set threshold = var('label_audit_threshold') -%}
    {%- if not ((threshold is number and threshold is not boolean)
        or (threshold is string and modules.re.fullmatch('[0-9]{1,3}([.][0-9]{1,19})?', threshold)))
        or threshold | float <= 0 or threshold | float > 1 -%}
        {{ exceptions.raise_compiler_error(
            'var label_audit_threshold must be a number > 0 and <= 1, got '
            ~ (threshold[:80] if threshold is string else threshold) | tojson) }}
    {%- endif -%}
    {{ return('') }}
{% endmacro %}
