{#- The weight set in force (the `weight_set` var) as one row: w_<signal> for every ranking
    signal (0 if unweighted) and total_weight, the sum of their absolute values. The one place a
    weight set becomes columns: the ranking, its uncertainty, the weight scenarios and the
    build's recorded settings all read it. -#}
{%- set signals = ranking_signals() -%}

with

weights as (

    select * from {{ ref('composite_weights') }}

),

in_force as (

    select * from weights
    where weight_set = {{ sql_string(var('weight_set')) }}

),

pivoted as (

    select
        {%- for signal in signals %}
            coalesce(sum(weight) filter (where signal = '{{ signal }}'), 0) as w_{{ signal }}
            {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from in_force

),

final as (

    select
        *,
        {% for signal in signals -%}
            abs(w_{{ signal }}) {%- if not loop.last %} + {% endif %}
        {%- endfor %} as total_weight

    from pivoted

)

select * from final
