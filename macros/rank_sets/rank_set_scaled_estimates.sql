{#-
    The papers of the scaled rank-set path with what that path needs, as a chain of CTEs ending
    in `name`: `papers` (a relation or CTE with group_key, category_size, estimate, se and any
    other columns, which are kept in their order) with three more: the paper's number within
    its group (category_item_number, in order of se, then `tie_key`: the draws pick partners by
    it, and one sort gives the cells and buckets too), its cell of standard errors (se_cell, one
    of `se_cells` equal shares of the group in se order: one marginal critical value per cell)
    and its bucket (se_bucket, one of `se_buckets` shares: the pair counts take every partner of
    a bucket at the bucket's largest se). What int_rank_set_scaled_estimates and `paperrank
    rank-sets` both number their papers with.
-#}
{% macro rank_set_scaled_estimate_ctes(name, papers, tie_key, settings) -%}
    {{ name }}_ordered as (

    select
        *,
        row_number() over (partition by group_key order by se, {{ tie_key }}) as category_item_number

    from {{ papers }}

),

{{ name }} as (

    select
        *,
        1 + {{ integer_divide('(category_item_number - 1) * ' ~ settings.se_cells, 'category_size') }}
            as se_cell,
        1 + {{ integer_divide('(category_item_number - 1) * ' ~ settings.se_buckets, 'category_size') }}
            as se_bucket

    from {{ name }}_ordered

)
{%- endmacro %}
