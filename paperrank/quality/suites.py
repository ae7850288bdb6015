"""The expectation suites, as code: one `TableSuite` per DataFrame read from the warehouse.

great-expectations guards the door and the delivery: the raw layer as it arrives from
outside (ids unique, every review's paper present, scores on each venue's own scale, known
primary areas), before dbt reads it; and the marts' shape as consumers receive them (finite
scores, only the taxonomy's ranked categories, category sizes).  What dbt's own tests check on
the transformations (unique ranks, contiguous ranks, not-null keys) is not repeated here.

Each expectation carries a description saying what it protects, which the report and the
Data Docs show.  Suites that depend on the venue (score scales, known primary areas) are built
once per venue, so a failure names the venue and the scale it was held to.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import great_expectations.expectations as gxe
import numpy as np
import pandas as pd
from great_expectations.expectations.expectation_configuration import FailureSeverity

from paperrank.core.schema import SIGNALS
from paperrank.core.seeds import ranking_signals
from paperrank.quality.references import VenueScales, known_primary_areas, venue_family

MAX_REVIEWS_PER_PAPER = 20
SIGNAL_COLUMNS = ranking_signals()
MART_SCORE_COLUMNS = (
    "local_top_overall",
    *(f"z_{c}" for c in SIGNAL_COLUMNS),
    *(f"{c}_term" for c in SIGNAL_COLUMNS),
)


@dataclass
class TableSuite:
    """Expectations on one DataFrame; `table` is the warehouse table its rows come from and
    `show` the columns that let a reader find an offending row."""

    name: str
    table: str
    frame: pd.DataFrame
    show: list[str]
    expectations: list[gxe.Expectation]
    warnings: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        # GX reports offending rows by position; a fresh index lets the report look them up.
        self.frame = self.frame.reset_index(drop=True)


def raw_suites(frames: dict[str, pd.DataFrame], scales: list[VenueScales],
               taxonomy: str | None) -> list[TableSuite]:
    """Suites for the raw layer, checked before dbt reads it."""
    papers, reviews, accepted = frames["papers"], frames["reviews"], frames["accepted_papers"]
    suites = [
        TableSuite("raw.papers", "raw.papers", papers, ["paper_id", "venue", "title"], [
            gxe.ExpectTableRowCountToBeBetween(
                min_value=1, description="raw.papers holds papers (a load has run)"),
            gxe.ExpectColumnValuesToNotBeNull(
                column="paper_id", description="every paper has an id"),
            gxe.ExpectColumnValuesToBeUnique(
                column="paper_id", description="one current row per paper"),
        ]),
        TableSuite("raw.reviews", "raw.reviews", reviews, ["review_id", "paper_id", "venue"], [
            gxe.ExpectTableRowCountToBeBetween(
                min_value=1, description="raw.reviews holds reviews (nothing to rank without)"),
            gxe.ExpectColumnValuesToNotBeNull(
                column="review_id", description="every review has an id"),
            gxe.ExpectColumnValuesToBeUnique(
                column="review_id",
                description="one current row per review (a duplicate counts a reviewer twice)"),
            gxe.ExpectColumnValuesToNotBeNull(
                column="paper_id", description="every review names its paper"),
            gxe.ExpectColumnValuesToBeInSet(
                column="paper_in_raw_papers", value_set=[True],
                description="every review's paper_id is a paper in raw.papers"),
        ]),
        _accepted_suite(accepted, taxonomy),
    ]
    areas = known_primary_areas()
    for scale in scales:
        suites.append(_scale_suite(reviews[reviews["venue"] == scale.venue], scale))
        suites.append(_area_suite(papers[papers["venue"] == scale.venue], scale.venue, areas))
    return suites


def _accepted_suite(accepted: pd.DataFrame, taxonomy: str | None) -> TableSuite:
    expectations: list[gxe.Expectation] = [
        gxe.ExpectTableRowCountToBeBetween(
            min_value=1, description="raw.papers holds accepted papers to rank"),
        gxe.ExpectColumnValuesToBeBetween(
            column="review_count", min_value=1,
            description="every accepted paper has at least one review in raw.reviews"),
        gxe.ExpectColumnValuesToBeBetween(
            column="review_count", max_value=MAX_REVIEWS_PER_PAPER,
            description=f"no paper has more than {MAX_REVIEWS_PER_PAPER} reviews "
                        "(more means reviews were duplicated)"),
    ]
    if taxonomy:
        expectations.append(gxe.ExpectColumnValuesToBeInSet(
            column="has_label", value_set=[True], severity=FailureSeverity.WARNING,
            description=f"every accepted paper has a label of taxonomy {taxonomy} in "
                        "raw.paper_labels (unlabelled papers are excluded as no_label)"))
    return TableSuite("raw.papers accepted, with reviews", "raw.papers", accepted,
                      ["paper_id", "venue", "title"], expectations)


def _scale_suite(reviews: pd.DataFrame, scale: VenueScales) -> TableSuite:
    """Each signal on the venue's form lies on its scale; a signal the form lacks is empty."""
    expectations: list[gxe.Expectation] = []
    for signal in SIGNALS:
        spec = scale.fields.get(signal)
        if spec is None or not spec.form_field:
            expectations.append(gxe.ExpectColumnValuesToBeNull(
                column=signal,
                description=f"{signal} stays empty: the form has no {signal} field ({scale.source})"))
        elif spec.allowed_values:
            expectations.append(gxe.ExpectColumnValuesToBeInSet(
                column=signal, value_set=sorted(spec.allowed_values),
                description=f"{signal} within {spec.describe_scale()} ({scale.source})"))
        elif spec.scale_min is not None or spec.scale_max is not None:
            expectations.append(gxe.ExpectColumnValuesToBeBetween(
                column=signal, min_value=spec.scale_min, max_value=spec.scale_max,
                description=f"{signal} within {spec.describe_scale()} ({scale.source})"))
    warnings = [scale.warning] if scale.warning else []
    return TableSuite(f"raw.reviews of {scale.venue} ({scale.source})", "raw.reviews", reviews,
                      ["review_id", "paper_id", "venue"], expectations, warnings)


def _area_suite(papers: pd.DataFrame, venue: str, areas: dict[str, list[str]]) -> TableSuite:
    """Primary areas come from the venue family's known list; without one, say so."""
    family = venue_family(venue)
    name = f"raw.papers of {venue} (primary areas of {family})"
    show = ["paper_id", "venue", "title"]
    if family not in areas:
        return TableSuite(name, "raw.papers", papers, show, [], [
            f"no known primary areas for venue family {family!r} ({venue}); add them to "
            "seeds/known_primary_areas.csv to check raw.papers.primary_area"])
    return TableSuite(name, "raw.papers", papers, show, [
        gxe.ExpectColumnValuesToBeInSet(
            column="primary_area", value_set=areas[family],
            description=f"primary_area is one of the {len(areas[family])} known {family} areas "
                        "(an unknown one would bypass primary_area_overrides)"),
    ])


def mart_suites(frames: dict[str, pd.DataFrame], ranked: list[str] | None,
                taxonomy: str | None, top_n: int) -> list[TableSuite]:
    """Suites for the marts, checked after dbt build and before anything is exported."""
    rankings = frames["paper_rankings"]
    rankings = rankings.assign(scores_not_finite=scores_not_finite(rankings))
    # One paper per row, ranks 1..n per category: dbt's tests on paper_rankings (unique,
    # not_null, ranks_contiguous) guard those; this suite checks what they cannot see.
    expectations: list[gxe.Expectation] = [
        gxe.ExpectTableRowCountToBeBetween(min_value=1, description="the ranking is not empty"),
        gxe.ExpectColumnPairValuesToBeEqual(
            column_A="category_size", column_B="papers_in_category",
            description="category_size is the number of ranked papers in the category"),
        gxe.ExpectColumnValuesToBeNull(
            column="scores_not_finite",
            description="every score (local_top_overall, each z-score and weighted term) is a "
                        "finite number, not null, NaN or +-inf: scores_not_finite names any "
                        "that is not, with its value"),
    ]
    if ranked is not None:
        expectations.append(gxe.ExpectColumnValuesToBeInSet(
            column="category", value_set=ranked,
            description=f"the marts were built for taxonomy {taxonomy}: only its ranked categories"))
    show = ["venue", "category", "paper_id", "category_rank"]
    counts = _category_counts(frames["category_counts"], ranked)
    suites = [
        TableSuite("marts.paper_rankings", "marts.paper_rankings", rankings, show, expectations),
        TableSuite("marts.paper_rankings per category", "marts.paper_rankings", counts,
                   ["venue", "category"], [
            gxe.ExpectColumnValuesToBeBetween(
                column="papers", min_value=top_n, severity=FailureSeverity.WARNING,
                description=f"each ranked category has at least top_n={top_n} papers "
                            "(a smaller one gives the experts a shorter list)"),
        ]),
    ]
    if "paper_rank_sets" in frames:  # a build with the rank sets (marts.build_marts)
        suites.append(_rank_sets_suite(frames["paper_rank_sets"], len(rankings), show))
    return suites


def _rank_sets_suite(rank_sets: pd.DataFrame, ranked: int, show: list[str]) -> TableSuite:
    """Every ranked paper has its rank sets, and its marginal set holds its own rank (what the
    report's and the export's readers take for granted; dbt's tests check the sets' own
    nesting)."""
    return TableSuite("marts.paper_rank_sets", "marts.paper_rank_sets", rank_sets, show, [
        gxe.ExpectTableRowCountToEqual(
            value=ranked, description="one row per ranked paper of marts.paper_rankings"),
        gxe.ExpectColumnPairValuesAToBeGreaterThanB(
            column_A="category_rank", column_B="marginal_lower", or_equal=True,
            ignore_row_if="either_value_is_missing",
            description="the marginal rank set's lower end is at most the paper's own rank"),
        gxe.ExpectColumnPairValuesAToBeGreaterThanB(
            column_A="marginal_upper", column_B="category_rank", or_equal=True,
            ignore_row_if="either_value_is_missing",
            description="the marginal rank set's upper end is at least the paper's own rank"),
    ])


def scores_not_finite(rankings: pd.DataFrame) -> pd.Series:
    """For each ranked paper, its scores (`MART_SCORE_COLUMNS`) that are not a finite number,
    as `column=value` ("z_confidence_mean=inf"), or None when all are.

    One column of names, checked by one expectation, instead of two expectations per score
    column (not null, then not infinite): each expectation costs great-expectations the
    same fixed work, which the marts' checks wait for between the build and the publication."""
    scores = rankings[list(MART_SCORE_COLUMNS)].astype("float64")
    bad = ~np.isfinite(scores.to_numpy())
    named = pd.Series([None] * len(rankings), index=rankings.index, dtype=object)
    for row in np.flatnonzero(bad.any(axis=1)):
        named.iloc[row] = ", ".join(f"{column}={scores.iat[row, at]}"
                                    for at, column in enumerate(scores.columns) if bad[row, at])
    return named


def _category_counts(counts: pd.DataFrame, ranked: list[str] | None) -> pd.DataFrame:
    """Ranked papers per venue and category, with 0 for a ranked category nobody landed in."""
    if ranked is None:
        return counts
    expected = pd.DataFrame([(venue, category) for venue in counts["venue"].unique()
                             for category in ranked], columns=["venue", "category"])
    merged = expected.merge(counts, on=["venue", "category"], how="outer")
    return merged.fillna({"papers": 0}).astype({"papers": "int64"})
