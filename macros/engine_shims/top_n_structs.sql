{#- Engine shim (dbt-utils' dispatch): default__ is the DuckDB form, the one the models are
    linted in; spark__ is the form dbt-spark needs. -#}

{#- An aggregate: the n largest (`largest` true) or smallest rows of the group as a list of
    structs of `fields` (a dict of name -> expression), ordered from the extreme inwards and
    compared field by field in the dict's order, so the first fields are the sort key. DuckDB
    keeps only n structs per group (max(x, n)); Spark sorts the group's structs. -#}
{% macro top_n_structs(fields, n, largest) -%}
    {{ return(adapter.dispatch('top_n_structs', 'paperrank')(fields, n, largest)) }}
{%- endmacro %}

{% macro default__top_n_structs(fields, n, largest) -%}
    {%- set members = [] -%}
    {%- for name, expression in fields.items() -%}
        {%- do members.append(name ~ ' := ' ~ expression) -%}
    {%- endfor -%}
    {{ 'max' if largest else 'min' }}(struct_pack({{ members | join(', ') }}), {{ n | int }})
{%- endmacro %}

{% macro spark__top_n_structs(fields, n, largest) -%}
    {%- set members = [] -%}
    {%- for name, expression in fields.items() -%}
        {%- do members.append("'" ~ name ~ "', " ~ expression) -%}
    {%- endfor -%}
    slice(sort_array(collect_list(named_struct({{ members | join(', ') }})),
        {{ 'false' if largest else 'true' }}), 1, {{ n | int }})
{%- endmacro %}
