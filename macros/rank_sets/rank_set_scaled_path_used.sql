{#-
    Whether any category takes the scaled rank-set path (int_rank_set_categories, passed as
    `categories`). The scaled path's draws and critical values are long unrolled SQL that DuckDB
    takes about a second to plan even on no rows; a build where every category is exact (the
    real venues so far) writes them as empty tables of the same columns instead. Asked when the
    model runs, after int_rank_set_categories is built; at parse time (no warehouse) the answer
    is yes, so docs and lint see the full SQL.
-#}
{% macro rank_set_scaled_path_used(categories) -%}
    {%- if not execute -%}
        {{ return(true) }}
    {%- endif -%}
    {%- set found = run_query(
        "select count(*) from " ~ categories ~ " where rank_set_method = 'scaled'") -%}
    {{ return(found.rows[0][0] > 0) }}
{%- endmacro %}
