{#-
    The standard normal quantile Phi^-1(p) for 0 < p < 1, by Wichura's algorithm AS241
    (PPND16, Applied Statistics 37, 1988; relative error about 1e-16), in portable SQL: engines
    have no inverse normal CDF. The rank sets' large-category path (rank_set_scaled_draws.sql)
    turns order-statistic tail probabilities as small as 1e-9 into normals with it, so the
    tails are computed from p itself, never from 1 - p. `p` is a column or a parenthesised
    expression (it is read many times). Python's statistics.NormalDist().inv_cdf is the same
    algorithm: the tests compare with it.
-#}
{% macro normal_quantile(p) -%}
    {%- set centre = '((' ~ p ~ ') - 0.5)' -%}
    {%- set central_r = '(0.180625 - ' ~ centre ~ ' * ' ~ centre ~ ')' -%}
    {%- set tail_r = 'sqrt(-ln(least(' ~ p ~ ', 1.0 - (' ~ p ~ '))))' -%}
    (case
        when abs({{ centre }}) <= 0.425 then {{ centre }}
            * {{ _horner(central_r, [3.3871328727963666080e0, 1.3314166789178437745e+2,
                1.9715909503065514427e+3, 1.3731693765509461125e+4, 4.5921953931549871457e+4,
                6.7265770927008700853e+4, 3.3430575583588128105e+4, 2.5090809287301226727e+3]) }}
            / {{ _horner(central_r, [1.0, 4.2313330701600911252e+1, 6.8718700749205790830e+2,
                5.3941960214247511077e+3, 2.1213794301586595867e+4, 3.9307895800092710610e+4,
                2.8729085735721942674e+4, 5.2264952788528545610e+3]) }}
        else sign({{ centre }}) * (case
            when {{ tail_r }} <= 5.0 then
                {{ _horner('(' ~ tail_r ~ ' - 1.6)', [1.42343711074968357734e0,
                    4.63033784615654529590e0, 5.76949722146069140550e0, 3.64784832476320460504e0,
                    1.27045825245236838258e0, 2.41780725177450611770e-1, 2.27238449892691845833e-2,
                    7.74545014278341407640e-4]) }}
                / {{ _horner('(' ~ tail_r ~ ' - 1.6)', [1.0, 2.05319162663775882187e0,
                    1.67638483018380384940e0, 6.89767334985100004550e-1, 1.48103976427480074590e-1,
                    1.51986665636164571966e-2, 5.47593808499534494600e-4, 1.05075007164441684324e-9]) }}
            else
                {{ _horner('(' ~ tail_r ~ ' - 5.0)', [6.65790464350110377720e0,
                    5.46378491116411436990e0, 1.78482653991729133580e0, 2.96560571828504891230e-1,
                    2.65321895265761230930e-2, 1.24266094738807843860e-3, 2.71155556874348757815e-5,
                    2.01033439929228813265e-7]) }}
                / {{ _horner('(' ~ tail_r ~ ' - 5.0)', [1.0, 5.99832206555887937690e-1,
                    1.36929880922735805310e-1, 1.48753612908506148525e-2, 7.86869131145613259100e-4,
                    1.84631831751005468180e-5, 1.42151175831644588870e-7, 2.04426310338993978564e-15]) }}
        end)
    end)
{%- endmacro %}

{#- c0 + x (c1 + x (c2 + ...)): a polynomial by Horner's rule, coefficients lowest first. -#}
{% macro _horner(x, coefficients) -%}
    {%- set ns = namespace(text=coefficients[-1] ~ '') -%}
    {%- for coefficient in coefficients[:-1] | reverse -%}
        {%- set ns.text = '(' ~ coefficient ~ ' + ' ~ x ~ ' * ' ~ ns.text ~ ')' -%}
    {%- endfor -%}
    {{ ns.text }}
{%- endmacro %}
