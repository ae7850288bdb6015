-- noqa: disable=LT02
-- (Jinja loops over buckets, kinds, slots and steps: sqlfluff cannot lay out the generated lines)
{#-
    Pair counts of the scaled rank-set path, as a chain of CTEs ending in `name`: per paper how
    many partners it beats and is beaten by, at its marginal and at the simultaneous critical
    value, where (i, k) is rejected ("i beats k") when x_i - x_k > c sqrt(se_i^2 + se_k^2).

    Why not every pair: that is n^2 rows per category. Two conservative steps make it a few
    lookups per paper instead; each can only leave a rejected pair uncounted, never count one
    that is not, so the sets built on these counts are at worst a little wider and keep their
    coverage:

    - partners are grouped into buckets of similar se (se_bucket) and every partner of a
      bucket is taken at the bucket's largest se, so paper i's test against a bucket is one
      threshold: x_k < x_i - c s (beats), x_k > x_i + c s (beaten by), s = sqrt(se_i^2 + b^2);
    - a partner counts when its whole bin (rank_set_scaled_paper_ctes) lies beyond the
      threshold's: bin(x_k) < bin(t) implies x_k < t, as the same monotone formula computes
      both. A lookup of each bin's running counts per bucket (the category's papers number the
      bins) replaces a sort: what a threshold's own bin holds (about 1/8 of a partner per
      bucket on average) is left out.

    `papers` is rank_set_scaled_paper_ctes' last CTE, `estimates` int_rank_set_scaled_estimates,
    `buckets` the number of buckets (rank_sets_se_buckets).
-#}
{% macro rank_set_scaled_count_ctes(name, papers, estimates, buckets) -%}
    {%- set kinds = [('marginal', 'beats'), ('marginal', 'beaten_by'), ('simultaneous', 'beats'),
        ('simultaneous', 'beaten_by')] -%}
    {{ name }}_buckets as (

    select
        group_key,
        se_bucket,
        max(se) as bucket_se,
        count(*) as bucket_size

    from {{ estimates }}
    group by group_key, se_bucket

),

-- per (category, bin): each bucket's partners in lower bins and in the bin
{{ name }}_binned as (

    select
        group_key,
        bin,
    {%- for bucket in range(1, buckets + 1) %}
            sum(case when se_bucket = {{ bucket }} then 1 else 0 end) as in_bin_{{ bucket }}
            {{- ',' if not loop.last }}
    {%- endfor %}

    from {{ papers }}
    group by group_key, bin

),

{{ name }}_grid as (

    select
        bins.group_key,
        bins.category_item_number - 1 as bin,
    {%- for bucket in range(1, buckets + 1) %}
            coalesce(binned.in_bin_{{ bucket }}, 0) as in_bin_{{ bucket }},
            coalesce(sum(binned.in_bin_{{ bucket }}) over (
                partition by bins.group_key order by bins.category_item_number
                rows between unbounded preceding and 1 preceding
            ), 0) as below_bin_{{ bucket }}{{ ',' if not loop.last }}
    {%- endfor %}

    from {{ estimates }} as bins
    left join {{ name }}_binned as binned
        on
            bins.group_key = binned.group_key
            and bins.category_item_number - 1 = binned.bin

),

-- every paper's four thresholds against every bucket, as bins
{{ name }}_thresholds as (

    select
        papers.group_key,
        papers.category_item_number,
        papers.group_size,
        buckets.se_bucket,
        buckets.bucket_size,
        kinds.kind,
        -- held to [-1, n] before the cast: beyond either end every bin counts alike, and a
        -- threshold far outside the estimates' range (a large se, a narrow range) would not fit
        -- a bigint
        cast(floor(least(greatest((
            papers.estimate
            + case when kinds.kind in (1, 3) then -1.0 else 1.0 end
            * case
                when kinds.kind <= 2 then papers.marginal_critical_value
                else papers.simultaneous_critical_value
            end
            * sqrt(papers.se * papers.se + buckets.bucket_se * buckets.bucket_se)
            - papers.low
        ) / papers.bin_width, -1.0), papers.group_size)) as bigint) as threshold_bin

    from {{ papers }} as papers
    inner join {{ name }}_buckets as buckets
        on papers.group_key = buckets.group_key
    cross join (
        {%- for kind in kinds %}
            select {{ loop.index }} as kind{{ ' union all' if not loop.last }}
        {%- endfor %}
    ) as kinds

),

-- the grid one row per (category, bin, bucket): each lookup below then carries two counts, not
-- every bucket's (a lookup of the wide grid gathered all its columns for each of the 4 x buckets
-- thresholds of every paper, a third of the model's CPU at 1M papers)
{{ name }}_grid_buckets as (

    select
        grid.group_key,
        grid.bin,
        buckets.se_bucket,
        case buckets.se_bucket
        {%- for bucket in range(1, buckets + 1) %}
            when {{ bucket }} then grid.below_bin_{{ bucket }}
        {%- endfor %}
        end as below_bin,
        case buckets.se_bucket
        {%- for bucket in range(1, buckets + 1) %}
            when {{ bucket }} then grid.below_bin_{{ bucket }} + grid.in_bin_{{ bucket }}
        {%- endfor %}
        end as through_bin

    from {{ name }}_grid as grid
    cross join (
        {%- for bucket in range(1, buckets + 1) %}
            select cast({{ bucket }} as bigint) as se_bucket{{ ' union all' if not loop.last }}
        {%- endfor %}
    ) as buckets

),

{{ name }}_counted as (

    select
        thresholds.group_key,
        thresholds.category_item_number,
        thresholds.kind,
        case
            when thresholds.threshold_bin < 0
                then case when thresholds.kind in (1, 3) then 0 else thresholds.bucket_size end
            when thresholds.threshold_bin >= thresholds.group_size
                then case when thresholds.kind in (1, 3) then thresholds.bucket_size else 0 end
            when thresholds.kind in (1, 3) then grid.below_bin
            else thresholds.bucket_size - grid.through_bin
        end as rejected

    from {{ name }}_thresholds as thresholds
    left join {{ name }}_grid_buckets as grid
        on
            thresholds.group_key = grid.group_key
            and thresholds.se_bucket = grid.se_bucket
            and thresholds.threshold_bin = grid.bin

),

{{ name }} as (

    select
        group_key,
        category_item_number,
    {%- for kind in kinds %}
            sum(case when kind = {{ loop.index }} then rejected else 0 end) as {{ kind[0] }}_{{ kind[1] }}
            {{- ',' if not loop.last }}
    {%- endfor %}

    from {{ name }}_counted
    group by group_key, category_item_number

)
{%- endmacro %}
