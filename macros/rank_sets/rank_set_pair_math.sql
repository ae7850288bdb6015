{#- Pair arithmetic shared by the rank-set partners, step-down and bounds. -#}

{#- (a - b) / sqrt(se_a^2 + se_b^2), and for two exact values (both se 0) +-`certain` by the
    sign of a - b (0 when equal): a certain difference is always rejected, never drawn. -#}
{% macro rank_set_scaled_difference(a, b, se_a, se_b, certain) -%}
    case
        when {{ se_a }} * {{ se_a }} + {{ se_b }} * {{ se_b }} > 0
            then ({{ a }} - {{ b }}) / sqrt({{ se_a }} * {{ se_a }} + {{ se_b }} * {{ se_b }})
        when {{ a }} > {{ b }} then {{ certain }}
        when {{ a }} < {{ b }} then -{{ certain }}
        else 0.0
    end
{%- endmacro %}

{#- The largest D over the ordered pairs (i, k) and (k, i) still in the set at threshold c:
    (i, k) stays while t_ik <= c (its D is d), (k, i) while -t_ik <= c (its D is -d). -#}
{% macro rank_set_pair_statistic(t, d, c) -%}
    case
        when {{ t }} <= {{ c }} and -{{ t }} <= {{ c }} then abs({{ d }})
        when {{ t }} <= {{ c }} then {{ d }}
        when -{{ t }} <= {{ c }} then -{{ d }}
    end
{%- endmacro %}

{#- r = se_i / sqrt(se_i^2 + se_k^2), the weight of i's own draw in D_ik = r u_i - sqrt(1 - r^2)
    u_k (0 for two exact values, whose D the exact path takes as 0: any r bounds it). -#}
{% macro rank_set_weight_share(se_i, se_k) -%}
    case
        when {{ se_i }} * {{ se_i }} + {{ se_k }} * {{ se_k }} > 0
            then {{ se_i }} / sqrt({{ se_i }} * {{ se_i }} + {{ se_k }} * {{ se_k }})
        else 0.0
    end
{%- endmacro %}

{#- The largest r a + sqrt(1 - r^2) b over r in [r_low, r_high] (within [0, 1]): with
    r = cos(theta) it is R cos(theta - phi), largest at the r nearest to |a| / sqrt(a^2 + b^2)
    when a, b >= 0 and at an end otherwise, so the largest of the three values is the
    maximum (each is attained). Arguments are columns: each is read several times. -#}
{% macro rank_set_arc_max(a, b, r_low, r_high) -%}
    {%- set r_best -%}
        case
            when {{ a }} * {{ a }} + {{ b }} * {{ b }} > 0
                then least({{ r_high }}, greatest({{ r_low }}, abs({{ a }}) / sqrt({{ a }} * {{ a }} + {{ b }} * {{ b }})))
            else {{ r_low }}
        end
    {%- endset -%}
    greatest(
        {{ r_low }} * {{ a }} + sqrt(greatest(1.0 - {{ r_low }} * {{ r_low }}, 0.0)) * {{ b }},
        {{ r_high }} * {{ a }} + sqrt(greatest(1.0 - {{ r_high }} * {{ r_high }}, 0.0)) * {{ b }},
        ({{ r_best }}) * {{ a }} + sqrt(greatest(1.0 - ({{ r_best }}) * ({{ r_best }}), 0.0)) * {{ b }}
    )
{%- endmacro %}
