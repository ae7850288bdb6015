{#- sqrt(n / (n - 1)): what turns a spread of n values measured with the population variance
    (divide by n, what redrawing n of n reproduces) into the sample-variance form (divide by
    n - 1), the unbiased one. Redrawing n of n reviews reproduces only (n - 1)/n of their variance
    (with 3 reviews the spread is 18% too narrow); the review bootstrap scales each redrawn
    paper's deviations from its point signals by this factor and the closed-form standard error
    is multiplied by it. n = 1 has no spread to correct: 1. -#}
{% macro small_sample_factor(n) -%}
    case
        when {{ n }} > 1 then sqrt(cast({{ n }} as double) / ({{ n }} - 1))
        else 1.0
    end
{%- endmacro %}
