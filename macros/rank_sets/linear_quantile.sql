{#-
    The p-quantile of a group's values with linear interpolation between order statistics
    (Hyndman & Fan type 7, R's quantile() default, which csranks uses): DuckDB's quantile_cont,
    Spark's percentile. `p` is a number from the settings, never text.
-#}
{% macro linear_quantile(x, p) -%}
    {{ return(adapter.dispatch('linear_quantile', 'paperrank')(x, p)) }}
{%- endmacro %}

{% macro default__linear_quantile(x, p) -%}
    quantile_cont({{ x }}, {{ p | float }})
{%- endmacro %}

{% macro spark__linear_quantile(x, p) -%}
    percentile({{ x }}, {{ p | float }})
{%- endmacro %}
