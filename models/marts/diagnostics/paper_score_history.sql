with

history as (

    select * from {{ ref('stg_raw__review_history') }}

),

papers as (

    select * from {{ ref('stg_raw__papers') }}

),

per_snapshot as (

    select
        paper_id,
        snapshot_at,
        count(*) as review_count,
        {%- set shown = [
            'rating_mean', 'contribution_mean', 'soundness_mean', 'confidence_mean', 'rating_std'
        ] %}
        {%- for signal in shown %}
            {{ review_signal(signal) }} as {{ signal }} {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from history
    group by paper_id, snapshot_at

),

with_previous as (

    select
        *,
        cast(row_number() over (partition by paper_id order by snapshot_at asc) as bigint) as snapshot_number,
        count(*) over (partition by paper_id) as snapshot_count,
        lag(snapshot_at) over (partition by paper_id order by snapshot_at asc) as previous_snapshot_at,
        lag(review_count) over (partition by paper_id order by snapshot_at asc) as previous_review_count,
        lag(rating_mean) over (partition by paper_id order by snapshot_at asc) as previous_rating_mean,
        lag(contribution_mean) over (
            partition by paper_id order by snapshot_at asc
        ) as previous_contribution_mean

    from per_snapshot

),

final as (

    -- venue first, as in every mart and in the YAML (DuckDB's contract orders the columns by
    -- it, Spark keeps this select's order)
    select  -- noqa: ST06
        papers.venue,
        with_previous.*,
        with_previous.rating_mean - with_previous.previous_rating_mean as rating_mean_change,
        with_previous.contribution_mean
        - with_previous.previous_contribution_mean as contribution_mean_change,
        with_previous.snapshot_number = with_previous.snapshot_count as is_latest_snapshot

    from with_previous
    left join papers
        on with_previous.paper_id = papers.paper_id

)

select * from final
