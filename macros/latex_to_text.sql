{#- A title's LaTeX as plain text, for reading (the title itself stays as the authors wrote it):
    `\emph{fast}` -> `fast`, `$\alpha$-Nets` -> `alpha-Nets`, `\&` -> `&`, braces and dollar
    signs dropped, runs of white space folded. Not a LaTeX renderer: a reading aid.
    (`adapter is defined` is false only under sqlfluff's jinja templater, which `make lint` uses.) -#}
{% macro latex_to_text(column) -%}
    {%- set implementation = adapter.dispatch('latex_to_text') if adapter is defined
        else default__latex_to_text -%}
    {{ return(implementation(column)) }}
{%- endmacro %}

{% macro default__latex_to_text(column) -%}
    trim(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
        {{ column }},
        '\\[a-zA-Z]+\*?\{([^{}]*)\}', '\1', 'g'),
        '\\([&%_#$])', '\1', 'g'),
        '\\([a-zA-Z]+)', '\1', 'g'),
        '[${}]', '', 'g'),
        '\s+', ' ', 'g'))
{%- endmacro %}
