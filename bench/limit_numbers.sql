-- The ranking's numbers as one hand-written DuckDB query over the raw layer: the floor the
-- project's models are measured against (bench/million.py, bench/million.md). bench/million.py
-- runs it as two statements: the numbers written alone (`limit_numbers`), and the same numbers
-- with every column of raw.papers joined last (`limit_written`), so that the windows' sorts never
-- carry the texts. Each paper's latest
-- label of the taxonomy, the datasets-and-benchmarks override by primary area, the review means
-- and the population std of the ratings, z-scores over each venue and category (sample std), the
-- weighted composite, and the rank with the project's tie-break (composite to 12 decimals, then
-- rating_mean, then paper_id). One pass over the reviews, one over the labels, one window per
-- category for the z-scores and one for the rank. The method's settings come from the seed
-- tables and three variables: set variable taxonomy / weight_set / top_n.
with
categories as (
    select category
    from seeds.taxonomies
    where taxonomy = getvariable('taxonomy') and is_ranked
),
overrides as (
    select lower(trim(primary_area)) as area_key, category
    from seeds.primary_area_overrides
    where taxonomy = getvariable('taxonomy')
),
weights as (
    select
        coalesce(sum(weight) filter (where signal = 'contribution_mean'), 0) as w_contribution,
        coalesce(sum(weight) filter (where signal = 'rating_mean'), 0) as w_rating,
        coalesce(sum(weight) filter (where signal = 'confidence_mean'), 0) as w_confidence,
        coalesce(sum(weight) filter (where signal = 'soundness_mean'), 0) as w_soundness,
        coalesce(sum(weight) filter (where signal = 'presentation_mean'), 0) as w_presentation,
        coalesce(sum(weight) filter (where signal = 'rating_std'), 0) as w_rating_std
    from seeds.composite_weights
    where weight_set = getvariable('weight_set')
),
labels as (
    select paper_id, category
    from raw.paper_labels
    where taxonomy = getvariable('taxonomy')
    qualify row_number() over (
        partition by paper_id order by labeled_at desc, loaded_at desc, record_hash asc) = 1
),
reviews as (
    select
        paper_id,
        count(*) as review_count,
        avg(contribution) as contribution_mean,
        avg(rating) as rating_mean,
        avg(confidence) as confidence_mean,
        avg(soundness) as soundness_mean,
        avg(presentation) as presentation_mean,
        stddev_pop(rating) as rating_std
    from raw.reviews
    group by paper_id
),
ranked_papers as (
    select
        p.venue,
        p.paper_id,
        coalesce(o.category, l.category) as category,
        r.* exclude (paper_id)
    from raw.papers as p
    left join labels as l on p.paper_id = l.paper_id
    left join overrides as o on lower(trim(p.primary_area)) = o.area_key
    inner join categories as c on coalesce(o.category, l.category) = c.category
    inner join reviews as r on p.paper_id = r.paper_id
    where p.is_accepted
),
standardized as (
    select
        *,
        coalesce((contribution_mean - avg(contribution_mean) over w)
            / nullif(stddev_samp(contribution_mean) over w, 0), 0) as z_contribution_mean,
        coalesce((rating_mean - avg(rating_mean) over w)
            / nullif(stddev_samp(rating_mean) over w, 0), 0) as z_rating_mean,
        coalesce((confidence_mean - avg(confidence_mean) over w)
            / nullif(stddev_samp(confidence_mean) over w, 0), 0) as z_confidence_mean,
        coalesce((soundness_mean - avg(soundness_mean) over w)
            / nullif(stddev_samp(soundness_mean) over w, 0), 0) as z_soundness_mean,
        coalesce((presentation_mean - avg(presentation_mean) over w)
            / nullif(stddev_samp(presentation_mean) over w, 0), 0) as z_presentation_mean,
        coalesce((rating_std - avg(rating_std) over w)
            / nullif(stddev_samp(rating_std) over w, 0), 0) as z_rating_std,
        count(*) over w as category_size
    from ranked_papers
    window w as (partition by venue, category)
),
scored as (
    select
        standardized.*,
        w_contribution * z_contribution_mean + w_rating * z_rating_mean
        + w_confidence * z_confidence_mean + w_soundness * z_soundness_mean
        + w_presentation * z_presentation_mean + w_rating_std * z_rating_std
            as local_top_overall
    from standardized
    cross join weights
)
select
    scored.*,
    row_number() over (
        partition by venue, category
        order by round(local_top_overall, 12) desc, rating_mean desc nulls last, paper_id asc
    ) as category_rank,
    category_rank <= getvariable('top_n') as is_top_n
from scored
