{#- The marts this build holds, one row each with its part: every mart of the ranking and of
    the extras the build selected whole (macros/parts/built_extras.sql). Publishing copies
    exactly these marts of this build (the same build_id as build_settings): a mart that an
    earlier build of other extras left in the working warehouse is in no row, so it is never
    published, audited or exported as this build's. Read from dbt's graph, not from the
    warehouse, so it says what this run wrote. -#}
{%- set extras = built_extras() -%}
{%- set held = [] -%}
{%- if execute -%}
    {%- for node in graph.nodes.values() | sort(attribute='unique_id') -%}
        {%- if node.resource_type == 'model' and node.config.schema == 'marts' -%}
            {%- for part in parts() -%}
                {%- if part in node.tags and (part == 'ranking' or part in extras) -%}
                    {%- do held.append({'part': part, 'mart': node.alias}) -%}
                {%- endif -%}
            {%- endfor -%}
        {%- endif -%}
    {%- endfor -%}
{%- endif %}

with

final as (

    -- the columns and their types, then one row per mart
    select
        cast(null as string) as build_id,
        cast(null as string) as part,
        cast(null as string) as mart
    where false
    {%- for row in held %}

        union all

        select
            {{ sql_string(invocation_id) }} as build_id,
            {{ sql_string(row.part) }} as part,
            {{ sql_string(row.mart) }} as mart
    {%- endfor %}

)

select * from final
