{#-
    A standard normal from two independent uniforms in (0, 1) (columns or expressions), by the
    Box-Muller transform (its cosine half): sqrt(-2 ln u1) cos(2 pi u2). Every engine has ln,
    sqrt, cos and pi(), so the value is the same function of the draw's bits everywhere (up to
    the last bit of the engines' libm).
-#}
{% macro standard_normal(u1, u2) -%}
    sqrt(-2.0 * ln({{ u1 }})) * cos(2.0 * pi() * {{ u2 }})
{%- endmacro %}
