{#- Standard score of `column` within the window `partition_by`: (x - mean) / sample std.
    Undefined z-scores (one paper, zero spread, no value) are 0, as in the method. -#}
{% macro zscore(column, partition_by) -%}
    coalesce(
        ({{ column }} - avg({{ column }}) over (partition by {{ partition_by }}))
        / nullif(stddev_samp({{ column }}) over (partition by {{ partition_by }}), 0),
        0
    )
{%- endmacro %}
