{#-
    Settings are data, never code. dbt renders a string var as a Jinja template when it holds a
    template delimiter (a brace followed by a brace, a percent sign or a hash, or the closing
    pairs); the first var() call runs it. So a taxonomy var holding a run_query call would run
    SQL, and a venue holding an env_var call would print a secret in the error naming the venue.
    This reads the vars as given on the command line (invocation_args_dict, never rendered) and
    refuses any text holding a delimiter, before anything calls var(). check_settings
    (on-run-start) calls it first; `python -m paperrank.pipeline` refuses the same values
    before dbt starts (paperrank/pipeline/settings.py).
-#}
{% macro refuse_template_vars() %}
    {#- sqlfluff's jinja templater (make lint) has no command line, so nothing to refuse -#}
    {%- set given = (invocation_args_dict.get('vars') if invocation_args_dict is defined) or {} -%}
    {%- if given is string -%}
        {%- set given = fromyaml(given) or {} -%}
    {%- endif -%}
    {%- set delimiter = '(' ~ '{' ~ '[{%#]|[#}%]' ~ '}' ~ ')' -%}
    {%- for name, value in given.items() -%}
        {%- set pending = [value] -%}
        {%- for item in pending -%}
            {%- if item is mapping -%}
                {%- do pending.extend(item.values()) -%}
            {%- elif item is iterable and item is not string -%}
                {%- do pending.extend(item) -%}
            {%- elif item is string and modules.re.search(delimiter, item) -%}
                {{ exceptions.raise_compiler_error(
                    'var ' ~ name ~ ' must not contain a Jinja template delimiter (settings are '
                    ~ 'data, never code), got "' ~ item[:80] ~ '"') }}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
{% endmacro %}
