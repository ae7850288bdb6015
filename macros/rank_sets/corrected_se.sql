{#-
    A standard error of a mean of n reviews from one computed with the population variance
    (sqrt(pop. variance / n), what redrawing n of n reproduces): times sqrt(n / (n - 1)), the
    sample-variance form. n = 1 has no spread to correct (its se is 0) and is left as it is.
-#}
{% macro corrected_se(se, n) -%}
    case
        when {{ n }} > 1 then {{ se }} * sqrt(cast({{ n }} as double) / ({{ n }} - 1))
        else {{ se }}
    end
{%- endmacro %}
