{%- set signals = ranking_signals() -%}
{%- set label_model = var('label_model') -%}

with

papers as (

    select * from {{ ref('int_papers_categorized') }}

),

venues as (

    select distinct venue from papers

),

weight_set as (

    select * from {{ ref('int_weight_set') }}

),

final as (

    select
        {{ sql_string(invocation_id) }} as build_id,
        cast({{ sql_string(run_started_at) }} as {{ timestamp_tz() }}) as built_at,
        venues.venue,
        {{ sql_string(var('taxonomy')) }} as taxonomy,
        {{ sql_string(var('weight_set')) }} as weight_set,
        cast({{ var('top_n') | int }} as integer) as top_n,
        {%- for signal in signals %}
            weight_set.w_{{ signal }} as weight_{{ signal }},
        {%- endfor %}
        {% if label_model is none -%}
            cast(null as string)
        {%- else -%}
            {{ sql_string(label_model) }}
        {%- endif %} as label_model

    from venues
    cross join weight_set

)

select * from final
