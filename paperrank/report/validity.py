"""The report's "How far to trust this ranking" section: what marts.ranking_validity and
marts.empirical_bayes_priors say about one venue, as one small table and one plot.

Kept apart from the rest of the report (content, figures) so the section has one home: the
report reads these marts when the warehouse has them and shows nothing made up when it does not
(a warehouse of accepted papers only says why no prior could be fitted, in the priors' words).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import duckdb
import pandas as pd

from paperrank.report import figures
from paperrank.report.svg import Key

OUTCOME_LABELS = {
    "accepted": "accepted vs rejected (AUC)",
    "top_tier": "oral/spotlight vs other accepted (AUC)",
    "citations": "citations (Spearman)",
}
SCORE_ORDER = ("local_top_overall", "posterior_mean", "rating_mean", "contribution_mean",
               "soundness_mean", "confidence_mean", "presentation_mean")
POPULATION_OF = {"accepted": "all_submissions", "top_tier": "accepted", "citations": "all_submissions"}
# how the mart's intervals were made (its interval_method column; a build from before the
# column resampled)
BOOTSTRAP = "bootstrap interval over papers"
CLOSED_FORM = "closed-form interval (DeLong's for an AUC, Fisher's z for a Spearman correlation)"


@dataclass
class ValiditySection:
    """What the template shows: the venue-wide rows, the plot and the priors' state."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    interval_kind: str = BOOTSTRAP
    plot: figures.Plot | None = None
    prior_reasons: list[str] = field(default_factory=list)
    fitted_priors: list[dict[str, Any]] = field(default_factory=list)


def load(con: duckdb.DuckDBPyConnection, venue: str, marts: set[str]) -> ValiditySection | None:
    """The section for `venue`, or None when the warehouse was built without the outcome marts."""
    if "ranking_validity" not in marts:
        return None
    frame = con.execute(
        "select * from marts.ranking_validity where venue = ? and category is null", [venue]).df()
    section = ValiditySection(rows=_rows(frame), interval_kind=_interval_kind(frame))
    if not frame.empty:
        section.plot = _plot(frame, venue, section.interval_kind)
    if "empirical_bayes_priors" in marts:
        priors = con.execute(
            "select * from marts.empirical_bayes_priors where venue = ? and prior_scope = 'venue' "
            "order by field", [venue]).df()
        section.prior_reasons = sorted(set(priors.loc[~priors["is_fitted"], "fit_reason"].dropna()))
        section.fitted_priors = [
            {"field": r.field, "papers": int(r.papers_reviewed),
             "not_accepted": int(r.papers_not_accepted), "reliability": r.mean_reliability}
            for r in priors[priors["is_fitted"]].itertuples()]
    return section


def _ordered(frame: pd.DataFrame) -> pd.DataFrame:
    """The headline rows: each outcome in its natural population, scores in a fixed order."""
    wanted = frame[frame.apply(lambda r: POPULATION_OF[r["outcome"]] == r["population"], axis=1)]
    order = {s: i for i, s in enumerate(SCORE_ORDER)}
    return wanted.assign(
        _o=wanted["outcome"].map(list(OUTCOME_LABELS).index),
        _s=wanted["score"].map(lambda s: order.get(s, len(order))),
    ).sort_values(["_o", "_s"]).drop(columns=["_o", "_s"])


def _rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
    if frame.empty:
        return []
    return [
        {"outcome": OUTCOME_LABELS[r.outcome], "population": r.population.replace("_", " "),
         "score": _score_label(r.score), "value": r.value, "ci_low": r.ci_low,
         "ci_high": r.ci_high, "n": int(r.n), "ceiling": r.ceiling}
        for r in _ordered(frame).itertuples()
    ]


def _interval_kind(frame: pd.DataFrame) -> str:
    """What the intervals are: the seeded bootstrap's, unless the mart took the closed form
    (outcomes_method, or `auto` at a scale where resampling would not fit)."""
    if "interval_method" in frame.columns and (frame["interval_method"] != "bootstrap").any():
        return CLOSED_FORM
    return BOOTSTRAP


def _score_label(score: str) -> str:
    if score == "local_top_overall":
        return "composite (article)"
    if score == "posterior_mean":
        return "composite of posterior means"
    return f"{figures.signal_label(score)} alone"


def _plot(frame: pd.DataFrame, venue: str, interval_kind: str) -> figures.Plot:
    """One dot per (outcome, score) with its 95% interval, and the reliability ceiling as a tick."""
    rows = _ordered(frame).reset_index(drop=True)
    colours = {"accepted": "#0072B2", "top_tier": "#D55E00", "citations": "#009E73"}
    seen = [o for o in colours if (rows["outcome"] == o).any()]
    kind = "bootstrap" if interval_kind == BOOTSTRAP else "closed-form"

    def number(value: Any) -> float | None:
        return None if value is None or pd.isna(value) else float(value)

    canvas = figures.intervals(
        labels=[_score_label(s) for s in rows["score"]],
        values=[number(v) for v in rows["value"]],  # type: ignore[misc]
        lows=[number(v) for v in rows["ci_low"]],  # type: ignore[misc]
        highs=[number(v) for v in rows["ci_high"]],  # type: ignore[misc]
        ceilings=[number(v) for v in rows["ceiling"]],
        colours=[colours.get(o, "#000000") for o in rows["outcome"]],
        keys=[Key(OUTCOME_LABELS[o], colours[o], "dot") for o in seen],
        axis_label=f"value (dot), 95% {kind} interval (line), reliability ceiling (|)")
    alt = (f"How well each score tracks the outcomes of {venue}: "
           + "; ".join(f"{_score_label(r.score)} for {OUTCOME_LABELS[r.outcome]}: {r.value:.2f}"
                       for r in rows.itertuples())
           + ". The table lists every value with its interval.")
    return figures.plot(canvas, alt, "How far to trust this ranking: each score against the outcomes.")
