{%- set venue = var('venue') -%}

with

computations as (

    select * from {{ ref('stg_derived__computations') }}

),

-- the results this build reads: each venue's related papers, and its sub-themes and audit for
-- the build's taxonomy and label model
in_scope as (

    select
        venue,
        part,
        related_papers,
        result_rows,
        input_key,
        method_key,
        computed_at

    from computations
    where
        (
            part = 'related'
            or (
                taxonomy = {{ sql_string(var('taxonomy')) }}
                and label_model = {{ related_label_model() }}
            )
        ){% if venue is not none %}
            and venue = {{ sql_string(venue) }}{% endif %}

)

select * from in_scope
