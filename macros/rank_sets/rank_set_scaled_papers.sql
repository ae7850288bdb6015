{#-
    The papers of the scaled rank-set path with what its counts need, as a chain of CTEs ending
    in `name`: per paper (int_rank_set_scaled_estimates) its estimate, se, bucket and cell, its
    cell's marginal and its category's simultaneous critical value
    (int_rank_set_scaled_critical_values), the category's size, and its bin:
    the category's range of estimates cut into n equal bins, bin(v) = floor((v - low) / w),
    w = (high - low) / (n - 1) (1 when every estimate is the same), so bins 0..n - 1 are
    numbered like the category's papers.
-#}
{% macro rank_set_scaled_paper_ctes(name, estimates, critical_values) -%}
    {{ name }}_range as (

    select
        group_key,
        count(*) as group_size,
        min(estimate) as low,
        case
            when count(*) > 1 and max(estimate) > min(estimate)
                then (max(estimate) - min(estimate)) / (count(*) - 1)
            else 1.0
        end as bin_width

    from {{ estimates }}
    group by group_key

),

{{ name }} as (

    select
        items.group_key,
        items.category_item_number,
        items.estimate,
        items.se,
        items.se_bucket,
        items.se_cell,
        cast(floor((items.estimate - ranges.low) / ranges.bin_width) as bigint) as bin,
        ranges.low,
        ranges.bin_width,
        ranges.group_size,
        items.category_rank,
        critical.marginal_critical_value,
        critical.simultaneous_critical_value

    from {{ estimates }} as items
    inner join {{ name }}_range as ranges
        on items.group_key = ranges.group_key
    inner join {{ critical_values }} as critical
        on
            items.group_key = critical.group_key
            and items.se_cell = critical.se_cell

)
{%- endmacro %}
