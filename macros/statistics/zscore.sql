{#- Exact, order-independent z-scores within a group: (x - group mean) / group sample std.

    Floating-point sums depend on the order the rows arrive in, which parallel scans change
    from run to run and with the thread count. So each value is turned into an integer of
    fixed point (fixed_point), the group's count, sum and sum of squares of those integers are
    exact whatever the order (zscore_sums, in a group-by), and the z-score of a row follows
    from the exact integers with one square root (zscore_from_sums):

        z = (n q - S) * sqrt((n - 1) / (n (n Q - S^2)))    q = fixed_point(x), S = sum q, Q = sum q^2

    which is (x - mean) / sample std with the mean and the variance computed exactly.
    Undefined z-scores (one value, zero spread, no value) are 0, as in the method. -#}

{#- x as an integer number of 1 / (64 * lcm(1..20)) units. A mean of up to 20 integer scores
    is a multiple of 1 / lcm(1..20), so it converts exactly; any other value (rating_std) is
    rounded to 3.4e-11, deterministically. Values up to 6e8 fit; the 38-digit sums overflow (an
    error, never a wrong answer) only past about 10^7 values of size 100 in one group. -#}
{% macro fixed_point(column) -%}
    cast(round({{ column }} * 14898723840) as bigint)
{%- endmacro %}

{#- Aggregates for zscore_from_sums, named <column>_n, <column>_sum and <column>_sum_sq, as
    38-digit integers (decimal(38, 0): exact, and the same type on every engine). -#}
{% macro zscore_sums(column) -%}
    count({{ column }}) as {{ column }}_n,
    cast({{ sum_int128(fixed_point(column)) }} as decimal(38, 0)) as {{ column }}_sum,
    sum(cast({{ fixed_point(column) }} as decimal(38, 0)) * {{ fixed_point(column) }}) as {{ column }}_sum_sq
{%- endmacro %}

{#- The z-score of `value` (a column of the row) given its group's `sums` (the relation that
    holds zscore_sums(column)). -#}
{% macro zscore_from_sums(value, sums, column) -%}
    {%- set n = sums ~ '.' ~ column ~ '_n' -%}
    {%- set total = sums ~ '.' ~ column ~ '_sum' -%}
    {%- set squares = sums ~ '.' ~ column ~ '_sum_sq' -%}
    coalesce(
        cast({{ n }} * {{ fixed_point(value) }} - {{ total }} as double)
        * sqrt(
            cast({{ n }} - 1 as double)
            / nullif(cast({{ n }} as double) * cast({{ n }} * {{ squares }} - {{ total }} * {{ total }} as double), 0)
        ),
        0
    )
{%- endmacro %}
