{#- A title's LaTeX as plain text, for reading (the title itself stays as the authors wrote it):
    `\emph{fast}` -> `fast`, `$\alpha$-Nets` -> `alpha-Nets`, `\&` -> `&`, braces and dollar
    signs dropped, runs of white space folded. Not a LaTeX renderer: a reading aid. -#}
{% macro latex_to_text(column) -%}
    {{ return(adapter.dispatch('latex_to_text', 'paperrank')(column)) }}
{%- endmacro %}

{#- Most titles hold nothing the five replacements change (no backslash, dollar or brace, no
    white space but single spaces between words): those are kept as they are after one scan,
    which at 1M one-word titles cost a sixth of the five replacements. -#}
{% macro default__latex_to_text(column) -%}
    case
        when not regexp_matches({{ column }}, '[\\${}\t\n\f\r]|  |^ | $') then {{ column }}
        else trim(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
            {{ column }},
            '\\[a-zA-Z]+\*?\{([^{}]*)\}', '\1', 'g'),
            '\\([&%_#$])', '\1', 'g'),
            '\\([a-zA-Z]+)', '\1', 'g'),
            '[${}]', '', 'g'),
            '\s+', ' ', 'g'))
    end
{%- endmacro %}

{#- The same five replacements in Java's regular expressions: raw literals (r'...', so Spark
    does not read the backslashes as escapes), `$1` for the group, every match replaced without
    a flag, and RE2's `\s` spelled out (Java's also matches a vertical tab). -#}
{% macro spark__latex_to_text(column) -%}
    trim(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
        {{ column }},
        r'\\[a-zA-Z]+\*?\{([^{}]*)\}', '$1'),
        r'\\([&%_#$])', '$1'),
        r'\\([a-zA-Z]+)', '$1'),
        r'[${}]', ''),
        r'[\t\n\f\r ]+', ' '))
{%- endmacro %}
