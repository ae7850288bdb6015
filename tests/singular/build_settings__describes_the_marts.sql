-- The ranking was built with the settings build_settings records: the papers whose category is
-- not a ranked category of the recorded taxonomy, whose composite is not the recorded weights
-- times its z-scores, whose shortlist flag disagrees with the recorded top_n, or whose label is
-- of another model than the recorded one. (A partial build that left an upstream table of other
-- settings fails here; build_settings__describes_the_uncertainty checks the rank uncertainty.)
{{ config(tags=['build_settings']) }}
{%- set signals = ranking_signals() %}

with

recorded as (

    select * from {{ ref('build_settings') }}

),

rankings as (

    select * from {{ ref('paper_rankings') }}

),

taxonomies as (

    select * from {{ ref('taxonomies') }}

),

ranked_categories as (

    select * from taxonomies
    where is_ranked

),

checked_rankings as (

    select
        rankings.venue,
        rankings.paper_id,
        rankings.category,
        rankings.category_rank,
        rankings.is_top_n,
        rankings.category_source,
        rankings.label_model,
        rankings.local_top_overall,
        recorded.venue as recorded_venue,
        recorded.top_n as recorded_top_n,
        recorded.label_model as recorded_label_model,
        ranked_categories.category as taxonomy_category,
        {% for signal in signals -%}
            recorded.weight_{{ signal }} * rankings.z_{{ signal }}
            {%- if not loop.last %} + {% endif %}
        {%- endfor %} as recorded_composite

    from rankings
    left join recorded
        on rankings.venue = recorded.venue
    left join ranked_categories
        on
            recorded.taxonomy = ranked_categories.taxonomy
            and rankings.category = ranked_categories.category

),

final as (

    select
        venue,
        paper_id,
        'venue without build_settings' as problem
    from checked_rankings
    where recorded_venue is null

    union all

    select
        venue,
        paper_id,
        'category ' || category || ' is not a ranked category of the recorded taxonomy' as problem
    from checked_rankings
    where recorded_venue is not null and taxonomy_category is null

    union all

    select
        venue,
        paper_id,
        'local_top_overall is not the recorded weights times the z-scores' as problem
    from checked_rankings
    where abs(local_top_overall - recorded_composite) > 1e-9

    union all

    select
        venue,
        paper_id,
        'is_top_n disagrees with the recorded top_n' as problem
    from checked_rankings
    where (is_top_n and category_rank > recorded_top_n) or (not is_top_n and category_rank <= recorded_top_n)

    union all

    select
        venue,
        paper_id,
        'label of another model than the recorded label_model' as problem
    from checked_rankings
    where
        recorded_label_model is not null and category_source = 'label'
        and coalesce(label_model, '') <> recorded_label_model

)

select * from final
