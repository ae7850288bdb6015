{#- Engine shim (dbt-utils' dispatch): default__ is the DuckDB form, the one the models are
    linted in; spark__ is the form dbt-spark needs. -#}

{#- The type of a timestamp with time zone (Spark's timestamp is one: an instant, shown in the
    session's time zone). -#}
{% macro timestamp_tz() -%}
    {{ return(adapter.dispatch('timestamp_tz', 'paperrank')()) }}
{%- endmacro %}

{% macro default__timestamp_tz() -%}
    {{ return('timestamptz') }}
{%- endmacro %}

{% macro spark__timestamp_tz() -%}
    {{ return('timestamp') }}
{%- endmacro %}
