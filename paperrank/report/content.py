"""Turn one venue's marts into what the page shows: facts, tables and plots.

Everything here selects, counts and formats rows the marts already hold; ranks, composites,
bands and probabilities are shown as dbt built them.  Text from authors and labellers is passed
on as plain strings: the template escapes it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pandas as pd

from paperrank.classify.evaluate import accuracy, cohens_kappa, confusion_matrix
from paperrank.report import figures, latex, words
from paperrank.report.marts import VenueMarts

CONFIDENCE_LEVELS = ("high", "medium", "low")
CATERPILLAR_HALF_WINDOW = 15
LOW_CONFIDENCE_SHOWN = 300
MOVERS_SHOWN = 5
BANDS = ("secure", "borderline", "outside")
FORUM_PREFIX = "https://openreview.net/forum?id="


@dataclass
class Movement:
    """A paper's mean rating at its first and its latest review snapshot."""

    before: float
    after: float
    before_at: Any
    after_at: Any

    @property
    def change(self) -> float:
        return self.after - self.before


@dataclass
class RelatedPaper:
    """A paper close to a row's paper (marts.paper_related): where the link jumps, and what it
    says. `anchor` is the row's fragment id when the page lists the paper, else None (the
    page's search shows it)."""

    paper_id: str
    title: str
    category: str
    rank: int | None
    similarity: float | None
    anchor: str | None
    url: str | None


@dataclass
class Audit:
    """A second labeller's category for the paper (marts.label_audit)."""

    taxonomy: str | None
    category: str | None
    confidence: str | None
    is_disputed: bool


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
    rank_set_lower: int | None = None
    rank_set_upper: int | None = None
    top_n_set: str | None = None  # "certainly" or "possibly" in the top N, else None
    category: str = ""
    authors: str | None = None
    abstract: str | None = None
    status: str | None = None
    pdf_url: str | None = None
    movement: Movement | None = None
    keywords: list[str] = field(default_factory=list)
    anchor: str = ""
    subtheme: str | None = None
    subtheme_label: str | None = None
    related: list[RelatedPaper] = field(default_factory=list)
    audits: list[Audit] = field(default_factory=list)

    @property
    def is_disputed(self) -> bool:
        return any(a.is_disputed for a in self.audits)


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
    movers: list[PaperRow] = field(default_factory=list)
    certainly_top_n: int | None = None  # papers certainly in the top N (None: no sets built)
    possibly_top_n: int | None = None
    words: list[str] = field(default_factory=list)  # the header in words (paperrank.report.words)
    facts: list[Any] = field(default_factory=list)  # words.Fact: the numbers, labelled
    subthemes: list[Subtheme] = field(default_factory=list)


@dataclass
class Subtheme:
    """A sub-theme of a category (marts.category_subthemes): a chip that filters its list."""

    key: str
    label: str
    terms: str | None
    papers: int


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


def title_text(title: Any) -> str:
    """The title a reader sees: LaTeX turned into plain text (see latex.to_text)."""
    title = present(title)
    return latex.to_text(str(title)) if title is not None else "(no title)"


def movements(data: VenueMarts) -> dict[str, Movement]:
    """Per paper with more than one review snapshot: its mean rating at the first and the
    latest snapshot (marts.paper_score_history), i.e. before and after the rebuttal."""
    history = data.score_history
    if history is None or history.empty:
        return {}
    moved = {}
    for paper_id, snaps in history.groupby("paper_id", sort=False):
        snaps = snaps.dropna(subset=["rating_mean"]).sort_values("snapshot_at")
        if len(snaps) < 2:
            continue
        first, last = snaps.iloc[0], snaps.iloc[-1]
        moved[str(paper_id)] = Movement(float(first["rating_mean"]), float(last["rating_mean"]),
                                        first["snapshot_at"], last["snapshot_at"])
    return moved


def paper_bands(data: VenueMarts) -> dict[str, str]:
    """Each paper's rank band (marts.paper_rank_uncertainty) by paper_id, for the rows that show a
    paper outside its category's section (the search index, the picks); papers with no band are
    left out."""
    if data.uncertainty is None or data.uncertainty.empty:
        return {}
    return {str(k): str(v) for k, v in zip(data.uncertainty["paper_id"],
                                            data.uncertainty["rank_band"], strict=True)
            if present(v) is not None}


def keywords_of(value: Any) -> list[str]:
    """paper_rankings.keywords ('; '-joined) as a list; none when the mart has no keywords."""
    text = _text(value)
    return [k.strip() for k in text.split("; ") if k.strip()] if text else []


def row_anchor(paper_id: str, used: set[str]) -> str:
    """The fragment id of a paper's row (a related-paper link jumps to it): unique on the page."""
    base = "p-" + (re.sub(r"[^A-Za-z0-9_-]+", "-", paper_id).strip("-") or "paper")
    anchor, n = base, 2
    while anchor in used:
        anchor, n = f"{base}-{n}", n + 1
    used.add(anchor)
    return anchor


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
                        _text(r.authors) or "", "" if link == FORUM_PREFIX + paper_id else link,
                        bands.get(paper_id, ""), _text(r.status) or "",
                        "; ".join(keywords_of(r.keywords))])
    return entries


def category_sections(data: VenueMarts, below: int, plots: bool = True) -> list[CategorySection]:
    """One section per ranked category: its shortlist and the `below` papers under the cut,
    each row with what the marts say about it, and the section's plots (`plots` False: none,
    for callers that read only the rows)."""
    signals = shown_signals(data.rankings, data.signals)
    uncertainty = None
    if data.uncertainty is not None and not data.uncertainty.empty:
        uncertainty = data.uncertainty.set_index("paper_id")
    # each paper's row of the marts as a dict, looked up per listed row (a DataFrame's .loc per
    # row cost a tenth of a second of every page)
    uncertain = _by_paper(uncertainty)
    in_sets = _by_paper(None if data.rank_sets is None else data.rank_sets.set_index("paper_id"))
    moved = movements(data)
    used: set[str] = set()
    anchors: set[str] = set()
    sections = []
    for category, papers in data.rankings.groupby("category", sort=True):
        papers = papers.sort_values("category_rank")
        top = papers[papers["is_top_n"]]
        top_count = len(top)
        shown = papers.head(top_count + below)
        anchor = anchor_for(str(category), used)
        rows = [_paper_row(row, signals, uncertain, in_sets, top_count, moved)
                for row in shown.to_dict("records")]
        for row in rows:
            row.anchor = row_anchor(row.paper_id, anchors)
        section = CategorySection(
            name=str(category), anchor=anchor, size=len(papers), top_count=top_count,
            cut=float(top["local_top_overall"].min()) if top_count else None,
            rows=rows, plots=[],
        )
        if plots:
            labels = [f"#{r.rank} {figures.short_title(r.title)}" for r in rows]
            section.plots = [
                figures.why_here(shown, signals, top_count, key=f"{anchor}-why", labels=labels),
                figures.distribution(papers["local_top_overall"], papers["is_top_n"], top_count,
                                     key=f"{anchor}-dist"),
            ]
        if uncertainty is not None:
            _add_uncertainty(section, papers, uncertainty, top_count, plots)
        section.movers = _movers(papers, signals, uncertain, top_count, moved)
        section.stability = _category_facts(data, str(category))
        facts = dict(section.stability)
        if facts.get("possibly_top_n_papers") is not None:  # the sizes of the rank sets
            section.possibly_top_n = int(facts["possibly_top_n_papers"])
            section.certainly_top_n = int(facts["certainly_top_n_papers"])
        section.subthemes = _subthemes(data, str(category))
        section.words = words.category_words(section, facts, data)
        section.facts = words.facts(section.stability)
        sections.append(section)
    _add_related(data, sections)
    return sections


def _category_facts(data: VenueMarts, category: str) -> list[tuple[str, Any]]:
    """The category's numbers as the marts hold them (name, value): its rank stability, its
    rank sets and reliability, and the weight-sensitivity summary category_summary carried."""
    facts: list[tuple[str, Any]] = []
    for frame in (data.stability, data.category_sets):
        if frame is None:
            continue
        match = frame[frame["category"] == category]
        if not match.empty:
            facts += [(column, present(value)) for column, value in match.iloc[0].items()
                      if column not in ("venue", "category") and column not in dict(facts)]
    sensitivity = data.weight_sensitivity
    if sensitivity is not None and not sensitivity.empty:
        rows = sensitivity[sensitivity["category"] == category]
        out = rows[rows["scenario_kind"] == "leave_one_out"]
        drawn = rows[rows["scenario_kind"] == "dirichlet"]
        for name, value in (
                ("leave_one_out_min_kendall_tau", out["kendall_tau"].min() if len(out) else None),
                ("leave_one_out_min_top_n_overlap", out["top_n_overlap"].min() if len(out) else None),
                ("weight_draws_mean_kendall_tau", drawn["kendall_tau"].mean() if len(drawn) else None),
                ("weight_draws_mean_top_n_overlap",
                 drawn["top_n_overlap"].mean() if len(drawn) else None)):
            if "kendall_tau" in name and "kendall_tau" not in rows.columns:
                continue
            facts.append((name, present(value)))
    return facts


def _subthemes(data: VenueMarts, category: str) -> list[Subtheme]:
    if data.subthemes is None or data.subthemes.empty:
        return []
    rows = data.subthemes[data.subthemes["category"] == category]
    return [Subtheme(key=str(r.subtheme), label=_text(r.subtheme_label) or str(r.subtheme),
                     terms=_text(r.subtheme_terms), papers=int(r.paper_count))
            for r in rows.itertuples(index=False)]


def _add_related(data: VenueMarts, sections: list[CategorySection]) -> None:
    """Each listed row's related papers (marts.paper_related, best first), its sub-theme
    (marts.paper_subthemes) and a second labeller's category (marts.label_audit)."""
    rows = {row.paper_id: row for section in sections for row in section.rows}
    if data.paper_subthemes is not None:
        for r in data.paper_subthemes.itertuples(index=False):
            row = rows.get(str(r.paper_id))
            if row is not None:
                row.subtheme, row.subtheme_label = _text(r.subtheme), _text(r.subtheme_label)
    if data.label_audit is not None:
        for r in data.label_audit.itertuples(index=False):
            row = rows.get(str(r.paper_id))
            if row is not None:
                row.audits.append(Audit(_text(r.taxonomy), _text(r.audit_category),
                                        _text(r.audit_confidence), bool(present(r.is_disputed))))
    if data.related is None or data.related.empty:
        return
    rankings = data.rankings
    ranked = {str(paper_id): found for paper_id, *found in zip(
        rankings["paper_id"], rankings["title"], rankings["category"], rankings["category_rank"],
        rankings["forum_url"], strict=True)}
    wanted = data.related[data.related["paper_id"].astype(str).isin(rows.keys())]
    for r in wanted.sort_values(["paper_id", "related_rank"]).itertuples(index=False):
        row, other = rows[str(r.paper_id)], str(r.related_paper_id)
        if other in ranked:
            title, category, rank, url = ranked[other]
            title, category = title_text(title), str(category)
            rank, url = int(rank), safe_url(present(url))
        else:  # related to a paper the ranking does not hold (not ranked): named by its id
            title, category, rank, url = other, "", None, None
        target = rows.get(other)
        row.related.append(RelatedPaper(
            paper_id=other, title=title, category=category, rank=rank,
            similarity=present(r.similarity), anchor=target.anchor if target else None, url=url))


def _movers(papers: pd.DataFrame, signals: list[str], uncertain: dict[str, dict[str, Any]],
            top_count: int, moved: dict[str, Movement]) -> list[PaperRow]:
    """The category's papers whose mean rating moved most between snapshots (any rank)."""
    ids = [p for p in papers["paper_id"].astype(str) if p in moved and moved[p].change != 0]
    ids.sort(key=lambda p: (-abs(moved[p].change), p))
    chosen = papers.set_index(papers["paper_id"].astype(str)).loc[ids[:MOVERS_SHOWN]]
    return [_paper_row(row, signals, uncertain, {}, top_count, moved)
            for row in chosen.to_dict("records")]


def _by_paper(frame: pd.DataFrame | None) -> dict[str, dict[str, Any]]:
    """A mart indexed by paper_id as {paper_id: its row as a dict}; empty without the mart."""
    if frame is None or frame.empty:
        return {}
    return {str(paper_id): row for paper_id, row in frame.to_dict("index").items()}


def _text(value: Any) -> str | None:
    value = present(value)
    return None if value is None or not str(value).strip() else str(value)


def _paper_row(row: dict[str, Any], signals: list[str], uncertain: dict[str, dict[str, Any]],
               in_sets: dict[str, dict[str, Any]], top_count: int,
               moved: dict[str, Movement] | None = None) -> PaperRow:
    paper = PaperRow(
        rank=int(row["category_rank"]),
        paper_id=str(row["paper_id"]),
        title=title_text(row["title"]),
        url=safe_url(present(row["forum_url"])),
        category=str(row["category"]),
        authors=_text(row.get("authors")),
        abstract=_text(row.get("abstract")),
        status=_text(row.get("status")),
        pdf_url=safe_url(present(row.get("pdf_url"))),
        movement=(moved or {}).get(str(row["paper_id"])),
        review_count=int(row["review_count"]),
        signals=[present(row.get(s)) for s in signals],
        composite=float(row["local_top_overall"]),
        confidence=present(row["label_confidence"]),
        rationale=present(row.get("label_rationale")),
        is_top=bool(row["is_top_n"]),
        first_below_cut=int(row["category_rank"]) == top_count + 1,
        keywords=keywords_of(row.get("keywords")),
    )
    found = uncertain.get(paper.paper_id)
    if found is not None:
        paper.rank_p05 = present(found["rank_p05"])
        paper.rank_p50 = present(found["rank_p50"])
        paper.rank_p95 = present(found["rank_p95"])
        paper.p_top_n = present(found["p_top_n"])
        paper.p_top_n_se = present(found["p_top_n_se"])
        paper.band = present(found["rank_band"])
    found = in_sets.get(paper.paper_id)
    if found is not None:
        lower, upper = present(found["marginal_lower"]), present(found["marginal_upper"])
        paper.rank_set_lower = None if lower is None else int(lower)
        paper.rank_set_upper = None if upper is None else int(upper)
        if present(found["is_certainly_top_n"]):
            paper.top_n_set = "certainly"
        elif present(found["is_possibly_top_n"]):
            paper.top_n_set = "possibly"
    return paper


def _add_uncertainty(section: CategorySection, papers: pd.DataFrame,
                     uncertainty: pd.DataFrame, top_count: int, plots: bool) -> None:
    joined = papers[["paper_id", "category_rank"]].join(
        uncertainty[["rank_p05", "rank_p50", "rank_p95", "rank_band", "uncertainty_method"]],
        on="paper_id", how="inner")
    if joined.empty:
        return
    methods = joined["uncertainty_method"].dropna().unique()
    section.uncertainty_method = ", ".join(sorted(map(str, methods))) or None
    section.band_counts = {str(k): int(v) for k, v in
                           joined["rank_band"].value_counts().sort_index().items()}
    if plots:
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
