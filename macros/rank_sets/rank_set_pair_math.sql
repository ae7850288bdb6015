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

{#- sqrt(1 - r^2) for a weight share r in [0, 1] (clamped against rounding): the weight of the
    partner's draw in D_ik. -#}
{% macro rank_set_partner_share(r) -%}
    sqrt(greatest(1.0 - {{ r }} * {{ r }}, 0.0))
{%- endmacro %}

{#- The largest |r a + q b| with q = sqrt(1 - r^2) over r in [r_low, r_high] (within [0, 1];
    q_low, q_high the q of the ends, rank_set_partner_share). With r = cos(theta) it is
    |R cos(theta - phi)|, R = sqrt(a^2 + b^2): R where the direction of (|a|, |b|) falls inside
    the range (a and b of one sign and |a| / R in [r_low, r_high]), else the larger end, since
    on [0, pi/2] it is largest at its peak or at an end. Both signs at once: the pairs (i, k)
    and (k, i) have D of opposite signs. Arguments are columns: each is read several times. -#}
{% macro rank_set_arc_max(a, b, r_low, q_low, r_high, q_high) -%}
    greatest(
        abs({{ r_low }} * {{ a }} + {{ q_low }} * {{ b }}),
        abs({{ r_high }} * {{ a }} + {{ q_high }} * {{ b }}),
        case
            when
                {{ a }} * {{ b }} >= 0
                and {{ a }} * {{ a }} >= {{ r_low }} * {{ r_low }} * ({{ a }} * {{ a }} + {{ b }} * {{ b }})
                and {{ a }} * {{ a }} <= {{ r_high }} * {{ r_high }} * ({{ a }} * {{ a }} + {{ b }} * {{ b }})
                then sqrt({{ a }} * {{ a }} + {{ b }} * {{ b }})
        end
    )
{%- endmacro %}
