"""Turn one venue's marts into what the page shows: facts, tables and plots.

Everything here selects, counts and formats rows the marts already hold; ranks, composites,
bands and probabilities are shown as dbt built them.  Text from authors and labellers is passed
on as plain strings: the template escapes it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import pandas as pd

from paperrank.classify.evaluate import accuracy, cohens_kappa, confusion_matrix
from paperrank.report import figures
from paperrank.report.marts import VenueMarts

CONFIDENCE_LEVELS = ("high", "medium", "low")
CATERPILLAR_HALF_WINDOW = 15
LOW_CONFIDENCE_SHOWN = 300


@dataclass
class PaperRow:
    rank: int
    paper_id: str
    title: str
    url: str | None
    review_count: int
    signals: list[float | None]
    composite: float
    confidence: str | None
    rationale: str | None
    is_top: bool
    first_below_cut: bool = False
    rank_p05: float | None = None
    rank_p50: float | None = None
    rank_p95: float | None = None
    p_top_n: float | None = None
    p_top_n_se: float | None = None
    band: str | None = None


@dataclass
class CategorySection:
    name: str
    anchor: str
    size: int
    top_count: int
    cut: float | None
    rows: list[PaperRow]
    plots: list[figures.Plot]
    stability: list[tuple[str, Any]] = field(default_factory=list)
    uncertainty_method: str | None = None
    band_counts: dict[str, int] = field(default_factory=dict)


def safe_url(url: Any) -> str | None:
    """Only http(s) links reach the page (a `javascript:` URL in the data must not)."""
    if not isinstance(url, str):
        return None
    return url if urlsplit(url.strip()).scheme in ("http", "https") else None


def present(value: Any) -> Any:
    """None for SQL NULL / NaN / NaT, so the template prints one placeholder for all."""
    if value is None or value is pd.NaT:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    try:
        if pd.isna(value):
            return None
    except (TypeError, ValueError):
        pass
    return value


def slugify(text: str) -> str:
    """Lower-case a-z0-9 words joined by '-': safe as a file name and a fragment id."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "unnamed"


def anchor_for(category: str, used: set[str]) -> str:
    """A stable, unique fragment id for a category section."""
    base = "cat-" + slugify(category)
    anchor, n = base, 2
    while anchor in used:
        anchor, n = f"{base}-{n}", n + 1
    used.add(anchor)
    return anchor


def weights_applied(rankings: pd.DataFrame, signals: list[str]) -> list[tuple[str, float | None]]:
    """The weight each term carries, read off the mart (term / z-score of any paper whose z is
    not 0), for the overview when the build settings do not list the weights."""
    weights: list[tuple[str, float | None]] = []
    for signal in signals:
        z = rankings.get(f"z_{signal}")
        term = rankings[f"{signal}_term"]
        if z is None:
            weights.append((signal, None))
            continue
        usable = z.abs() > 1e-9
        ratio = (term[usable] / z[usable]).median() if usable.any() else None
        weights.append((signal, None if ratio is None else round(float(ratio), 6)))
    return weights


def shown_signals(rankings: pd.DataFrame, signals: list[str]) -> list[str]:
    """Signals whose term is not zero for every paper (a weight of 0 adds nothing to read)."""
    return [s for s in signals if (rankings[f"{s}_term"].fillna(0.0) != 0).any()]


def category_sections(data: VenueMarts, below: int) -> list[CategorySection]:
    signals = shown_signals(data.rankings, data.signals)
    uncertainty = None
    if data.uncertainty is not None and not data.uncertainty.empty:
        uncertainty = data.uncertainty.set_index("paper_id")
    used: set[str] = set()
    sections = []
    for category, papers in data.rankings.groupby("category", sort=True):
        papers = papers.sort_values("category_rank")
        top = papers[papers["is_top_n"]]
        top_count = len(top)
        shown = papers.head(top_count + below)
        anchor = anchor_for(str(category), used)
        rows = [_paper_row(row, signals, uncertainty, top_count) for _, row in shown.iterrows()]
        plots = [
            figures.why_here(shown, signals, top_count, key=f"{anchor}-why"),
            figures.distribution(papers["local_top_overall"], papers["is_top_n"], top_count,
                                 key=f"{anchor}-dist"),
        ]
        section = CategorySection(
            name=str(category), anchor=anchor, size=len(papers), top_count=top_count,
            cut=float(top["local_top_overall"].min()) if top_count else None,
            rows=rows, plots=plots,
        )
        if uncertainty is not None:
            _add_uncertainty(section, papers, uncertainty, top_count)
        if data.stability is not None:
            match = data.stability[data.stability["category"] == category]
            if not match.empty:
                section.stability = [
                    (column, present(value)) for column, value in match.iloc[0].items()
                    if column not in ("venue", "category")
                ]
        sections.append(section)
    return sections


def _paper_row(row: pd.Series, signals: list[str], uncertainty: pd.DataFrame | None,
               top_count: int) -> PaperRow:
    paper = PaperRow(
        rank=int(row["category_rank"]),
        paper_id=str(row["paper_id"]),
        title=present(row["title"]) or "(no title)",
        url=safe_url(present(row["forum_url"])),
        review_count=int(row["review_count"]),
        signals=[present(row.get(s)) for s in signals],
        composite=float(row["local_top_overall"]),
        confidence=present(row["label_confidence"]),
        rationale=present(row.get("label_rationale")),
        is_top=bool(row["is_top_n"]),
        first_below_cut=int(row["category_rank"]) == top_count + 1,
    )
    if uncertainty is not None and paper.paper_id in uncertainty.index:
        found = uncertainty.loc[paper.paper_id]
        paper.rank_p05 = present(found["rank_p05"])
        paper.rank_p50 = present(found["rank_p50"])
        paper.rank_p95 = present(found["rank_p95"])
        paper.p_top_n = present(found["p_top_n"])
        paper.p_top_n_se = present(found["p_top_n_se"])
        paper.band = present(found["rank_band"])
    return paper


def _add_uncertainty(section: CategorySection, papers: pd.DataFrame,
                     uncertainty: pd.DataFrame, top_count: int) -> None:
    joined = papers[["paper_id", "category_rank"]].join(
        uncertainty[["rank_p05", "rank_p50", "rank_p95", "rank_band", "uncertainty_method"]],
        on="paper_id", how="inner")
    if joined.empty:
        return
    methods = joined["uncertainty_method"].dropna().unique()
    section.uncertainty_method = ", ".join(sorted(map(str, methods))) or None
    section.band_counts = {str(k): int(v) for k, v in
                           joined["rank_band"].value_counts().sort_index().items()}
    low = max(1, top_count - CATERPILLAR_HALF_WINDOW)
    window = joined[joined["category_rank"].between(low, top_count + CATERPILLAR_HALF_WINDOW)]
    section.plots.append(figures.caterpillar(window, top_count, key=f"{section.anchor}-rank"))


def category_table(data: VenueMarts) -> list[dict[str, Any]]:
    """Papers per category from category_summary, ranked categories first."""
    summary = data.summary.sort_values(["is_category_ranked", "category"],
                                       ascending=[False, True], na_position="last")
    return [
        {
            "category": row["category"],
            "is_ranked": bool(present(row["is_category_ranked"])),
            "accepted": int(row["accepted_papers"]),
            "ranked": int(row["ranked_papers"]),
            "overridden": int(row["overridden_papers"]),
            "top_n": int(row["top_n_papers"]) if present(row["is_category_ranked"]) else None,
        }
        for _, row in summary.iterrows()
    ]


def exclusions(data: VenueMarts) -> list[dict[str, Any]]:
    """Excluded papers by reason, with one reason in words and the categories involved."""
    rows = []
    for reason, group in data.excluded.groupby("exclusion_reason", sort=True):
        categories = group["category"].fillna("(no label)").value_counts()
        rows.append({
            "reason": reason,
            "papers": len(group),
            "example": group["exclusion_detail"].iloc[0],
            "categories": [(str(c), int(n)) for c, n in categories.items()],
        })
    return sorted(rows, key=lambda r: (-r["papers"], r["reason"]))


def classification_sources(data: VenueMarts) -> list[dict[str, Any]]:
    """Which label set and prompt, or which override, put the accepted papers where they are."""
    ranked = data.rankings[["category_source", "label_model", "label_prompt_hash"]]
    excluded = data.excluded[["category_source", "label_model"]].assign(label_prompt_hash=None)
    papers = pd.concat([ranked, excluded], ignore_index=True)
    papers["category_source"] = papers["category_source"].fillna("none (no label)")
    counted = (papers.fillna({"label_model": "", "label_prompt_hash": ""})
               .groupby(["category_source", "label_model", "label_prompt_hash"])
               .size().reset_index(name="papers")
               .sort_values(["papers", "category_source"], ascending=[False, True]))
    return [
        {"source": r.category_source, "model": r.label_model or None,
         "prompt_hash": r.label_prompt_hash or None, "papers": int(r.papers)}
        for r in counted.itertuples()
    ]


def primary_area_table(data: VenueMarts) -> pd.DataFrame:
    """Accepted papers by primary area (rows) and category (columns): the ranked and the
    excluded together, so every accepted paper is counted once."""
    papers = pd.concat([data.rankings[["primary_area", "category"]],
                        data.excluded[["primary_area", "category"]]], ignore_index=True)
    papers = papers.fillna({"primary_area": "(none)", "category": "(no label)"})
    table = pd.crosstab(papers["primary_area"], papers["category"])
    table = table.loc[table.sum(axis=1).sort_values(ascending=False, kind="stable").index]
    ranked = sorted(set(data.rankings["category"]))
    others = sorted((c for c in table.columns if c not in ranked),
                    key=lambda c: (-int(table[c].sum()), str(c)))
    return table[[c for c in ranked if c in table.columns] + others]


def confidence_table(data: VenueMarts) -> pd.DataFrame:
    levels = data.rankings["label_confidence"].fillna("none").str.lower()
    table = pd.crosstab(data.rankings["category"], levels)
    columns = [c for c in (*CONFIDENCE_LEVELS, "none") if c in table.columns]
    columns += sorted(c for c in table.columns if c not in columns)
    return table[columns]


def low_confidence(data: VenueMarts) -> tuple[list[dict[str, Any]], int]:
    """Ranked papers whose label is of low confidence (the first few hundred), and how many."""
    low = data.rankings[data.rankings["label_confidence"].fillna("").str.lower() == "low"]
    low = low.sort_values(["category", "category_rank"])
    rows = [
        {"category": r["category"], "rank": int(r["category_rank"]), "paper_id": r["paper_id"],
         "title": present(r["title"]) or "(no title)", "url": safe_url(present(r["forum_url"])),
         "primary_area": present(r["primary_area"]), "is_top": bool(r["is_top_n"]),
         "rationale": present(r.get("label_rationale"))}
        for _, r in low.head(LOW_CONFIDENCE_SHOWN).iterrows()
    ]
    return rows, len(low)


def agreement(data: VenueMarts) -> list[dict[str, Any]]:
    """Per other label set: how often it gives the paper the category the ranking used."""
    if data.agreement is None or data.agreement.empty:
        return []
    top = data.rankings.loc[data.rankings["is_top_n"], ["paper_id", "category", "category_rank",
                                                          "title", "forum_url"]]
    results = []
    for model, pairs in data.agreement.groupby("other_label_model", sort=True):
        order = sorted(set(pairs["label_category"]) | set(pairs["other_category"]))
        matrix = confusion_matrix(pairs["label_category"], pairs["other_category"], order)
        disagreeing = pairs.loc[~pairs["is_agreeing"], ["paper_id", "other_category"]]
        top_disagreeing = top.merge(disagreeing, on="paper_id").sort_values(
            ["category", "category_rank"])
        results.append({
            "model": model,
            "used_models": sorted(map(str, pairs["label_model"].unique())),
            "papers": len(pairs),
            "agreeing": int(pairs["is_agreeing"].sum()),
            "accuracy": present(accuracy(matrix)),
            "kappa": present(cohens_kappa(matrix)),
            "matrix": matrix,
            "top_disagreeing": [
                {"category": r.category, "rank": int(r.category_rank), "paper_id": r.paper_id,
                 "title": present(r.title) or "(no title)", "url": safe_url(present(r.forum_url)),
                 "other_category": r.other_category}
                for r in top_disagreeing.itertuples()
            ],
        })
    return results


def picks(data: VenueMarts) -> list[dict[str, Any]]:
    bands = {}
    if data.uncertainty is not None:
        bands = dict(zip(data.uncertainty["paper_id"], data.uncertainty["rank_band"], strict=True))
    return [
        {
            "selected_category": present(r["selected_category"]),
            "paper_id": r["paper_id"],
            "title": present(r["title"]) or "(not in the warehouse)",
            "paper_category": present(r["paper_category"]),
            "rank": present(r["category_rank"]),
            "size": present(r["category_size"]),
            "is_top_n": bool(r["is_top_n"]),
            "band": present(bands.get(r["paper_id"])),
            "flag": present(r["flag_reason"]),
            "selected_by": present(r["selected_by"]),
            "note": present(r["note"]),
        }
        for _, r in data.picks.iterrows()
    ]


def settings(data: VenueMarts) -> list[tuple[str, Any]]:
    """The recorded build settings (marts.build_settings), every column as it is."""
    if data.build_settings is None:
        return []
    return [(column, present(value)) for column, value in data.build_settings.iloc[0].items()]


def setting(data: VenueMarts, name: str) -> Any:
    if data.build_settings is None or name not in data.build_settings.columns:
        return None
    return present(data.build_settings.iloc[0][name])
