"""The categories the build will rank with, read the way dbt reads them, before dbt runs.

dbt's rule (stg_raw__paper_labels, int_paper_labels_deduplicated, int_papers_categorized): a
paper's label is its latest of the taxonomy (newest labeled_at, then newest load, then the
label's hash), of one model when `label_model` is set; a primary area of
seeds/primary_area_overrides.csv replaces the category.  Sub-themes cluster the ranked
categories of seeds/taxonomies.csv.  dbt checks that the categories agree
(tests/singular/related_subthemes_current.sql), so a drift between the two is a failed build,
not a silent mix.
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb

from paperrank.core.seeds import read_seed
from paperrank.core.taxonomy import load_taxonomy


@dataclass(frozen=True)
class Labelled:
    """One accepted paper's label (the labeller's choice) and category (after the override)."""

    paper_id: str
    label: str
    category: str


def latest_labels(con: duckdb.DuckDBPyConnection, venue: str, taxonomy: str,
                  label_model: str | None) -> list[Labelled]:
    """Every accepted paper of the venue that has a label, with its category; by paper id."""
    overrides = {row["primary_area"].strip().lower(): row["category"]
                 for row in read_seed("primary_area_overrides") if row["taxonomy"] == taxonomy}
    rows = con.execute(
        """
        with ordered as (
            select paper_id, category, row_number() over (
                partition by paper_id
                order by labeled_at desc, loaded_at desc, record_hash asc) as recency
            from raw.paper_labels
            where taxonomy = $taxonomy and ($model is null or model = $model)
        )
        select p.paper_id, o.category, lower(trim(p.primary_area))
        from raw.papers as p
        inner join ordered as o on o.paper_id = p.paper_id and o.recency = 1
        where p.is_accepted and p.venue = $venue
        order by p.paper_id
        """, {"taxonomy": taxonomy, "model": label_model, "venue": venue}).fetchall()
    return [Labelled(paper_id, label, overrides.get(area or "", label))
            for paper_id, label, area in rows]


def ranked_categories(taxonomy: str) -> set[str]:
    """The taxonomy's ranked categories (seeds/taxonomies.csv is_ranked)."""
    return {c.name for c in load_taxonomy(taxonomy).categories if c.is_ranked}


def classifier_choices(taxonomy: str) -> set[str]:
    """The categories a classifier may choose (the LLM's enum)."""
    return set(load_taxonomy(taxonomy).choice_names)
