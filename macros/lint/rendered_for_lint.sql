{#-
    True when sqlfluff's jinja templater renders (`make lint`), not dbt: it has none of dbt's
    context objects, `exceptions` among them.

    sqlfluff reports nothing found inside a macro's expansion, not even a parse error (tried by
    hand with a macro broken on purpose), only in the model's own text around it. So a macro that
    unrolls a loop writes it twice for the linter instead of its full count: the same findings,
    for a fraction of the lint's time (fully unrolled, three models whose macros unroll the rank
    sets' candidate pairs and steps and the normal cutoff's steps took 53 of its 138 CPU s).
-#}
{% macro rendered_for_lint() -%}
    {{ return(exceptions is not defined) }}
{%- endmacro %}
