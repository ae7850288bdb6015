"""The venue-wide tables of the page: categories, exclusions, label sources, confidence,
agreement, the experts' picks, the build settings and the loads (each category's own section
is paperrank.report.sections).

Everything here selects, counts and formats rows the marts already hold; ranks, composites,
bands and probabilities are shown as dbt built them.  Text from authors and labellers is passed
on as plain strings: the template escapes it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from paperrank.classify.evaluate import accuracy, cohens_kappa, confusion_matrix
from paperrank.report.marts import VenueMarts
from paperrank.report.sections import CategorySection
from paperrank.report.values import FORUM_PREFIX, keywords_of, plain_text, present, safe_url, title_text

CONFIDENCE_LEVELS = ("high", "medium", "low")
LOW_CONFIDENCE_SHOWN = 300
BANDS = ("secure", "borderline", "outside")


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


def paper_bands(data: VenueMarts) -> dict[str, str]:
    """Each paper's rank band (marts.paper_rank_uncertainty) by paper_id, for the rows that show a
    paper outside its category's section (the search index, the picks); papers with no band are
    left out."""
    if data.uncertainty is None or data.uncertainty.empty:
        return {}
    return {str(k): str(v) for k, v in zip(data.uncertainty["paper_id"],
                                            data.uncertainty["rank_band"], strict=True)
            if present(v) is not None}


def statuses(data: VenueMarts) -> list[str]:
    """The venue's paper statuses (Oral, Poster, ...), the commonest first: the status filter's
    choices."""
    counted = data.rankings["status"].dropna().astype(str).value_counts()
    return sorted(counted.index, key=lambda s: (-int(counted[s]), s))


def searched(data: VenueMarts) -> str:
    """What the page's search box searches, as its label says it: titles always, and authors,
    keywords and abstracts only when the venue's data has them (ICLR's accepted-papers file has
    no authors: a label promising them would send an expert looking for what is not there)."""
    fields = ["titles"]
    for column, name in (("authors", "authors"), ("keywords", "keywords"), ("abstract", "abstracts")):
        if column in data.rankings and data.rankings[column].fillna("").astype(str).str.strip().ne("").any():
            fields.append(name)
    return ", ".join(fields)


def unlisted_papers(data: VenueMarts, sections: list[CategorySection]) -> list[list[Any]]:
    """Every ranked paper that no section lists, for the page's search: [paper_id, category,
    rank, title, authors, link, band, status, keywords], the link "" when it is FORUM_PREFIX +
    paper_id (the page adds that back; a tenth of the index otherwise) and null when there is
    none. The lists show each shortlist and a few papers below its cut; the search still finds
    the rest (by title, authors and keywords: their abstracts would double the page), and each
    can be picked from there."""
    listed = {row.paper_id for section in sections for row in section.rows}
    bands = paper_bands(data)
    rest = data.rankings[~data.rankings["paper_id"].astype(str).isin(listed)]
    rest = rest.sort_values(["category", "category_rank"])
    entries = []
    for r in rest.itertuples(index=False):
        paper_id, link = str(r.paper_id), safe_url(present(r.forum_url))
        entries.append([paper_id, str(r.category), int(r.category_rank), title_text(r.title),
                        plain_text(r.authors) or "", "" if link == FORUM_PREFIX + paper_id else link,
                        bands.get(paper_id, ""), plain_text(r.status) or "",
                        "; ".join(keywords_of(r.keywords))])
    return entries


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
         "title": title_text(r["title"]), "url": safe_url(present(r["forum_url"])),
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
                 "title": title_text(r.title), "url": safe_url(present(r.forum_url)),
                 "other_category": r.other_category}
                for r in top_disagreeing.itertuples()
            ],
        })
    return results


def settings(data: VenueMarts) -> list[tuple[str, Any]]:
    """The recorded build settings (marts.build_settings), every column as it is."""
    if data.build_settings is None:
        return []
    return [(column, present(value)) for column, value in data.build_settings.iloc[0].items()]


def setting(data: VenueMarts, name: str) -> Any:
    return data.setting(name)


def loads(data: VenueMarts) -> list[dict[str, Any]]:
    """Each load of papers or reviews: its kind, its file's name, the snapshot time it gave and
    where that time came from, as far as the page can tell (a file whose modification time is
    the snapshot time was dated by it: `ingest file` without --snapshot-at)."""
    if data.loads is None:
        return []
    return [{"kind": r.kind, "source": str(r.source).replace("\\", "/").rsplit("/", 1)[-1],
             "snapshot_at": present(r.snapshot_at), "loaded_at": present(r.loaded_at),
             "dated_by": _dated_by(str(r.kind), str(r.source), present(r.snapshot_at))}
            for r in data.loads.itertuples()]


def _dated_by(kind: str, source: str, snapshot: Any) -> str:
    if kind == "openreview_notes":
        return "the newest note in the file"
    try:
        mtime = Path(source).stat().st_mtime
    except OSError:
        return "the file's modification time or --snapshot-at (the file is gone)"
    if snapshot is not None and abs(pd.Timestamp(snapshot).timestamp() - mtime) < 1:
        return "the file's modification time (no --snapshot-at)"
    return "--snapshot-at (or the file changed since)"
