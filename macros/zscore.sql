{#- Standard score of `column` within the window `partition_by`: (x - mean) / sample std.
    Undefined z-scores (one paper, zero spread, no value) are 0, as in the method.
    The frame is ordered by `order_by` (a unique key) so that the floating-point sums run in
    the same order on every run, whatever order parallel scans deliver the rows in. -#}
{% macro zscore(column, partition_by, order_by) -%}
    {%- set window -%}
        partition by {{ partition_by }} order by {{ order_by }}
        rows between unbounded preceding and unbounded following
    {%- endset -%}
    coalesce(
        ({{ column }} - avg({{ column }}) over ({{ window }}))
        / nullif(stddev_samp({{ column }}) over ({{ window }}), 0),
        0
    )
{%- endmacro %}
