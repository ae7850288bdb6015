{#- One row of the weight set in force (the `weight_set` var): w_<signal> for every ranking
    signal (0 if unweighted). The one place a weight set becomes columns, for the ranking, the
    build's recorded settings and the weight scenarios. -#}
{% macro weight_columns(weights_relation) -%}
    select
    {%- for signal in ranking_signals() %}
        coalesce(sum(weight) filter (where signal = '{{ signal }}'), 0) as w_{{ signal }},
    {%- endfor %}
        count(*) as weight_count

    from {{ weights_relation }}
    where weight_set = {{ sql_string(var('weight_set')) }}
{%- endmacro %}
