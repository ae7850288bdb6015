{#- Engine shim (dbt-utils' dispatch): default__ is the DuckDB form, the one the models are
    linted in; spark__ is the form dbt-spark needs. -#}

{#- Whether `expression` matches the regular expression `pattern` (a Jinja string) in full. -#}
{% macro regex_full_match(expression, pattern) -%}
    {{ return(adapter.dispatch('regex_full_match', 'paperrank')(expression, pattern)) }}
{%- endmacro %}

{% macro default__regex_full_match(expression, pattern) -%}
    regexp_full_match({{ expression }}, {{ sql_string(pattern) }})
{%- endmacro %}

{#- rlike finds a match anywhere; \A and \z anchor it to the whole value (`$` would also
    match before a final newline). -#}
{% macro spark__regex_full_match(expression, pattern) -%}
    ({{ expression }} rlike {{ sql_string('\\A(?:' ~ pattern ~ ')\\z') }})
{%- endmacro %}
