{#- Engine shim (dbt-utils' dispatch): default__ is the DuckDB form, the one the models are
    linted in; spark__ is the form dbt-spark needs. -#}

{#- The integer quotient of a non-negative whole number by a positive one (DuckDB's `//`, which
    Spark reads as a syntax error; Spark's `div`). -#}
{% macro integer_divide(x, n) -%}
    {{ return(adapter.dispatch('integer_divide', 'paperrank')(x, n)) }}
{%- endmacro %}

{% macro default__integer_divide(x, n) -%}
    ({{ x }} // {{ n }})
{%- endmacro %}

{% macro spark__integer_divide(x, n) -%}
    ({{ x }} div {{ n }})
{%- endmacro %}
