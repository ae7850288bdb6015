{#- The marts this build holds, one row each with its part: every mart of the ranking and of
    the extras the build selected whole (macros/parts/built_extras.sql). Publishing copies
    exactly these marts of this build (the same build_id as build_settings): a mart that an
    earlier build of other extras left in the working warehouse is in no row, so it is never
    published, audited or exported as this build's. Read from dbt's graph, not from the
    warehouse, so it says what this run wrote; one row per venue the build ranked. -#}
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

settings as (

    select * from {{ ref('build_settings') }}

),

held as (

    -- the columns and their types, then one row per mart
    select
        cast(null as string) as part,
        cast(null as string) as mart
    where false
    {%- for row in held %}

        union all

        select
            {{ sql_string(row.part) }} as part,
            {{ sql_string(row.mart) }} as mart
    {%- endfor %}

),

-- one row per venue and mart: the published warehouse holds every venue's latest build, each
-- venue's rows of its own build (a venue published later never changes another's list)
final as (

    select
        settings.venue,
        cast(settings.build_id as string) as build_id,
        held.part,
        held.mart

    from settings
    cross join held

)

select * from final
