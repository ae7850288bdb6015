{#- Engine shim (dbt-utils' dispatch): default__ is the DuckDB form, the one the models are
    linted in; spark__ is the form dbt-spark needs. -#}

{#- The type of exact integer sums of squares (up to about 10^38). -#}
{% macro int128() -%}
    {{ return(adapter.dispatch('int128', 'paperrank')()) }}
{%- endmacro %}

{% macro default__int128() -%}
    hugeint
{%- endmacro %}

{% macro spark__int128() -%}
    decimal(38, 0)
{%- endmacro %}

{#- The exact sum of whole numbers (BIGINT values) as a 128-bit integer. DuckDB's sum of a BIGINT is
    a HUGEINT already; Spark's is a BIGINT, which would overflow (an error), so there the
    values are summed as decimal(38, 0). Past 38 digits both engines raise an error (Spark
    in ANSI mode, which profiles.yml sets), never a null or a wrapped sum. -#}
{% macro sum_int128(expression) -%}
    {{ return(adapter.dispatch('sum_int128', 'paperrank')(expression)) }}
{%- endmacro %}

{% macro default__sum_int128(expression) -%}
    sum({{ expression }})
{%- endmacro %}

{% macro spark__sum_int128(expression) -%}
    sum(cast({{ expression }} as decimal(38, 0)))
{%- endmacro %}
