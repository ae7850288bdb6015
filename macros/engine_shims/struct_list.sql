{#- Engine shim (dbt-utils' dispatch): default__ is the DuckDB form, the one the models are
    linted in; spark__ is the form dbt-spark needs. -#}

{#- An aggregate: the rows' `fields` (a dict of name -> expression) as one list of structs. -#}
{% macro struct_list(fields) -%}
    {{ return(adapter.dispatch('struct_list', 'paperrank')(fields)) }}
{%- endmacro %}

{% macro default__struct_list(fields) -%}
    {%- set members = [] -%}
    {%- for name, expression in fields.items() -%}
        {%- do members.append(name ~ ' := ' ~ expression) -%}
    {%- endfor -%}
    list(struct_pack({{ members | join(', ') }}))
{%- endmacro %}

{% macro spark__struct_list(fields) -%}
    {%- set members = [] -%}
    {%- for name, expression in fields.items() -%}
        {%- do members.append("'" ~ name ~ "', " ~ expression) -%}
    {%- endfor -%}
    collect_list(named_struct({{ members | join(', ') }}))
{%- endmacro %}

{#- The sum over a list of structs of `expression`, in which `item` names the element (0 for
    an empty list): one row's loop over its list, no join or group-by. -#}
{% macro struct_list_sum(items, item, expression) -%}
    {{ return(adapter.dispatch('struct_list_sum', 'paperrank')(items, item, expression)) }}
{%- endmacro %}

{% macro default__struct_list_sum(items, item, expression) -%}
    coalesce(list_sum(list_transform({{ items }}, lambda {{ item }}: {{ expression }})), 0.0)
{%- endmacro %}

{% macro spark__struct_list_sum(items, item, expression) -%}
    aggregate({{ items }}, cast(0 as double), (total, {{ item }}) -> total + ({{ expression }}))
{%- endmacro %}
