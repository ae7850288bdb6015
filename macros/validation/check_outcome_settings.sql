{#- On-run-start: the outcome models' vars (macros/outcomes/outcome_settings.sql) are whole numbers in
    range, since they are pasted into SQL; a typo fails naming the var and what is allowed. -#}
{% macro check_outcome_settings() %}
    {%- if not execute -%}
        {{ return('') }}
    {%- endif -%}
    {%- set minimum = {'eb_min_unaccepted': 1, 'eb_min_category_papers': 2, 'eb_draws': 1,
                       'validity_replicates': 1, 'outcomes_seed': 0, 'outcomes_row_budget': 0} -%}
    {%- set methods = ['auto', 'resample', 'closed_form'] -%}
    {%- set values = outcome_vars() -%}
    {%- for name, low in minimum.items() -%}
        {%- set value = values[name] -%}
        {%- if not (value is integer or (value is string and modules.re.fullmatch('[0-9]{1,9}', value)))
            or value | int < low -%}
            {{ exceptions.raise_compiler_error(
                'var ' ~ name ~ ' must be a whole number >= ' ~ low ~ ' (at most 9 digits), got '
                ~ (value[:80] if value is string else value) | tojson) }}
        {%- endif -%}
    {%- endfor -%}
    {%- if values.outcomes_method not in methods -%}
        {{ exceptions.raise_compiler_error(
            'var outcomes_method must be one of ' ~ methods | join(', ') ~ ', got '
            ~ (values.outcomes_method[:80] if values.outcomes_method is string
               else values.outcomes_method) | tojson) }}
    {%- endif -%}
    {{ return('') }}
{% endmacro %}
