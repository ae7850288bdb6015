{#-
    The other weight sets the ranking is tried under, one row per scenario with w_<signal> for
    every signal: each leave-one-signal-out set (that signal's weight 0, the others scaled back
    to the same total |weight|), and each Dirichlet draw around the weight set,
    |w| ~ total * Dirichlet(concentration * |w| / total), from int_weight_draws' Gamma
    variates normalised to the total, with the official signs kept. scenario_number orders
    them for the joins of int_weight_scenario_ranks.
-#}
{%- set signals = ranking_signals() %}

with

weight_set as (

    select * from {{ ref('int_weight_set') }}

),

gamma_draws as (

    select * from {{ ref('int_weight_draws') }}

),

leave_one_out as (

    {% for left_out in signals -%}
        select
            'without {{ left_out }}' as scenario,
            'leave_one_out' as scenario_kind,
            '{{ left_out }}' as left_out_signal,
            cast(null as bigint) as draw,
            {%- for signal in signals %}
                {%- if signal == left_out %}
                    0.0 as w_{{ signal }}
                {%- else %}
                    w_{{ signal }} * total_weight / nullif(total_weight - abs(w_{{ left_out }}), 0)
                        as w_{{ signal }}
                {%- endif %}
                {%- if not loop.last %},{% endif %}
            {%- endfor %}
        from weight_set
        where w_{{ left_out }} <> 0
        {% if not loop.last %}union all{% endif %}
    {% endfor %}

),

-- wide, so that every draw's total is summed in the same (signal) order
drawn as (

    select
        gamma_draws.draw,
        {%- for signal in signals %}
            coalesce(max(case when gamma_draws.signal_name = '{{ signal }}' then gamma_draws.gamma end), 0)
                as g_{{ signal }},
        {%- endfor %}
        {% for signal in signals -%}
            coalesce(max(case when gamma_draws.signal_name = '{{ signal }}' then gamma_draws.gamma end), 0)
            {%- if not loop.last %} + {% endif %}
        {%- endfor %} as gamma_total

    from gamma_draws
    group by gamma_draws.draw

),

dirichlet as (

    select
        'weight draw ' || drawn.draw as scenario,
        'dirichlet' as scenario_kind,
        cast(null as string) as left_out_signal,
        drawn.draw,
        {%- for signal in signals %}
            sign(weight_set.w_{{ signal }}) * drawn.g_{{ signal }} * weight_set.total_weight
            / nullif(drawn.gamma_total, 0) as w_{{ signal }}
            {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from drawn
    cross join weight_set

),

scenarios as (

    select * from leave_one_out
    union all
    select * from dirichlet

),

final as (

    select
        *,
        row_number() over (order by scenario_kind desc, scenario asc) as scenario_number

    from scenarios

)

select * from final
