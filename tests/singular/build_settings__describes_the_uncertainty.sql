-- The rank uncertainty was built with the settings build_settings records: the papers whose
-- rank uncertainty used another method, replicate count or band thresholds. It reads
-- paper_rank_uncertainty, so a build runs it only when it holds the rank uncertainty.
{{ config(tags=['build_settings']) }}

with

recorded as (

    select * from {{ ref('build_settings') }}

),

uncertainty as (

    select * from {{ ref('paper_rank_uncertainty') }}

),

checked_uncertainty as (

    select
        uncertainty.venue,
        uncertainty.paper_id,
        uncertainty.uncertainty_method,
        uncertainty.replicates,
        uncertainty.rank_band,
        recorded.uncertainty_method as recorded_method,
        recorded.rank_uncertainty_replicates as recorded_replicates,
        case
            when uncertainty.p_top_n >= recorded.rank_band_secure then 'secure'
            when uncertainty.p_top_n > recorded.rank_band_outside then 'borderline'
            else 'outside'
        end as recorded_band

    from uncertainty
    inner join recorded
        on uncertainty.venue = recorded.venue

),

final as (

    select
        venue,
        paper_id,
        'rank uncertainty of another method than the recorded one' as problem
    from checked_uncertainty
    where coalesce(uncertainty_method, '') <> coalesce(recorded_method, '')

    union all

    select
        venue,
        paper_id,
        'bootstrap replicates other than the recorded rank_uncertainty_replicates' as problem
    from checked_uncertainty
    where uncertainty_method = 'bootstrap' and replicates <> recorded_replicates

    union all

    select
        venue,
        paper_id,
        'rank_band disagrees with the recorded band thresholds' as problem
    from checked_uncertainty
    where rank_band <> recorded_band

)

select * from final
