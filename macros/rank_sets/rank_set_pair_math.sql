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
