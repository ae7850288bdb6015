{#- Exact, order-independent z-scores within a group: (x - group mean) / group sample std. The
    one implementation: paper_rankings standardises the signals with it, the bootstrap each
    replicate's redrawn signals, and the normal method its review deviations, all on one grid.

    Floating-point sums depend on the order the rows arrive in, which parallel scans change
    from run to run and with the thread count. So each value is turned into an integer of
    fixed point (fixed_point), and the group's count, sum and sum of squares of those integers
    are exact whatever the order (zscore_sums, in a group-by). The group's mean and sample std
    follow from the exact integers once per group, in the same group-by:

        mean = S / n / u,   std = sqrt((n Q - S^2) / (n (n - 1))) / u
        q = fixed_point(x) = x * u as an integer, S = sum q, Q = sum q^2, u = 64 lcm(1..20)

    and the z-score of a row is (x - mean) / std in floating point (zscore_from_sums): one
    subtraction and one division per row, from values that are the same on every run, so the
    result is too. (Measured at 1M papers: the per-row 128-bit numerator n q - S and the
    per-row square root of the older form cost a third more CPU than this form, which costs what
    a floating-point window costs; hugeint and decimal(38, 0) sums cost the same.)
    Undefined z-scores (one value, zero spread, no value) are 0, as in the method. -#}

{#- x as an integer number of 1 / (64 * lcm(1..20)) units. A mean of up to 20 integer scores
    is a multiple of 1 / lcm(1..20), so it converts exactly; any other value (rating_std) is
    rounded to 3.4e-11, deterministically. Values up to 6e8 fit; the 128-bit sums overflow (an
    error, never a wrong answer) only past about 10^7 values of size 100 in one group. -#}
{% macro fixed_point(column) -%}
    cast(round({{ column }} * 14898723840) as bigint)
{%- endmacro %}

{#- Aggregates for zscore_from_sums: <column>_n, <column>_sum and <column>_sum_sq as 128-bit
    integers (int128: hugeint on DuckDB, decimal(38, 0) on Spark; exact on both), and from them,
    once per group, <column>_mean and <column>_std (null when undefined). -#}
{% macro zscore_sums(column) -%}
    {%- set n = 'count(' ~ column ~ ')' -%}
    {%- set total = sum_int128(fixed_point(column)) -%}
    {%- set squares = 'sum(cast(' ~ fixed_point(column) ~ ' as ' ~ int128() ~ ') * '
        ~ fixed_point(column) ~ ')' -%}
    {{ n }} as {{ column }}_n,
    {{ total }} as {{ column }}_sum,
    {{ squares }} as {{ column }}_sum_sq,
    cast({{ total }} as double) / {{ n }} / 14898723840.0 as {{ column }}_mean,
    sqrt(
        cast({{ n }} * {{ squares }} - cast({{ total }} as {{ int128() }}) * {{ total }} as double)
        / nullif({{ n }} * ({{ n }} - 1), 0)
    ) / 14898723840.0 as {{ column }}_std
{%- endmacro %}

{#- The z-score of `value` (a column of the row) given its group's `sums` (the relation that
    holds zscore_sums(column)). -#}
{% macro zscore_from_sums(value, sums, column) -%}
    coalesce(({{ value }} - {{ sums }}.{{ column }}_mean) / nullif({{ sums }}.{{ column }}_std, 0), 0)
{%- endmacro %}
