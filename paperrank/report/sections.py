"""Each ranked category of a venue as the page shows it: its rows, movers, plots, sub-themes,
related papers and the header's numbers.

Rows, ranks, bands and probabilities are the marts'; this picks the rows shown (the shortlist
and `below` papers past its cut), joins each paper's extras to its row, and labels the numbers
(paperrank.report.plain_language).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from paperrank.report import figures, maps, plain_language
from paperrank.report.duplicates import NEAR_DUPLICATE
from paperrank.report.marts import VenueMarts
from paperrank.report.values import anchor_for, keywords_of, plain_text, present, row_anchor, safe_url, title_text

CATERPILLAR_HALF_WINDOW = 15
MOVERS_SHOWN = 5


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
    words: list[str] = field(default_factory=list)  # the header in words (paperrank.report.plain_language)
    facts: list[Any] = field(default_factory=list)  # plain_language.Fact: the numbers, labelled
    subthemes: list[Subtheme] = field(default_factory=list)
    map: maps.CategoryMap | None = None  # None: the build has no map of this category


@dataclass
class Subtheme:
    """A sub-theme of a category (marts.category_subthemes): a chip that filters its list."""

    key: str
    label: str
    terms: str | None
    papers: int


def shown_signals(rankings: pd.DataFrame, signals: list[str]) -> list[str]:
    """Signals whose term is not zero for every paper (a weight of 0 adds nothing to read)."""
    return [s for s in signals if (rankings[f"{s}_term"].fillna(0.0) != 0).any()]


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


def category_sections(data: VenueMarts, below: int, plots: bool = True,
                      near_duplicate: float = NEAR_DUPLICATE) -> list[CategorySection]:
    """One section per ranked category: its shortlist and the `below` papers under the cut,
    each row with what the marts say about it, the section's plots (`plots` False: none, for
    callers that read only the rows) and its map (near-duplicate picks: both similarities above
    `near_duplicate`)."""
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
        section.map = _category_map(data, section, near_duplicate)
        section.words = plain_language.category_words(section, facts, data)
        section.facts = plain_language.facts(section.stability)
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
    return [Subtheme(key=str(r.subtheme), label=plain_text(r.subtheme_label) or str(r.subtheme),
                     terms=plain_text(r.subtheme_terms), papers=int(r.paper_count))
            for r in rows.itertuples(index=False)]


def _category_map(data: VenueMarts, section: CategorySection,
                  near_duplicate: float) -> maps.CategoryMap | None:
    """The category's map (marts.paper_map_positions), its top N titled and listed as text with
    links to their rows, and the pairs of its papers that are near-duplicates."""
    if data.map_positions is None:
        return None
    points = data.map_positions[data.map_positions["map_category"] == section.name]
    if points.empty:
        return None
    top = [row for row in section.rows if row.is_top]
    placed = maps.dots(points, "subtheme", "subtheme_label")
    shown = len(maps.drawn(placed, {r.paper_id for r in top}))
    some = "" if shown == len(placed) else f" ({shown} of them drawn)"
    svg = maps.category_svg(placed, {r.paper_id: f"#{r.rank} {r.title}" for r in top},
                            f"Map of {section.name}'s {len(points)} papers{some} by sub-theme, "
                            f"its top {section.top_count} ringed")
    text = maps.category_text(placed, [(r.paper_id, r.anchor, r.rank,
                                        figures.short_title(r.title, 60)) for r in top],
                              section.top_count)
    pairs = [] if data.related is None else maps.near_duplicates(
        data.related, set(points["paper_id"].astype(str)), near_duplicate)
    return maps.CategoryMap(svg=svg, text=text, subthemes=len(section.subthemes),
                            trustworthiness=_trust(data, section.name),
                            near_pairs=maps.near_pairs_json(pairs), papers=len(placed), shown=shown)


def _trust(data: VenueMarts, category: str | None) -> float | None:
    """A map's trustworthiness (marts.map_trustworthiness; None: not measured)."""
    trust = data.map_trust
    if trust is None or trust.empty:
        return None
    rows = trust[trust["map_category"].isna()] if category is None else \
        trust[trust["map_category"] == category]
    return None if rows.empty else present(rows.iloc[0]["trustworthiness"])


def venue_map(data: VenueMarts, sections: list[CategorySection]) -> maps.VenueMap | None:
    """The overview's map of the venue, coloured by category (None: the build has none)."""
    if data.map_positions is None:
        return None
    points = data.map_positions[data.map_positions["map_category"].isna()]
    if points.empty:
        return None
    placed = maps.dots(points, "category", "category")
    shown = len(maps.drawn(placed, set()))
    some = "" if shown == len(placed) else f" ({shown} of them drawn)"
    name = f"Map of {data.venue}'s {len(points)} papers{some}, coloured by category"
    return maps.VenueMap(svg=maps.venue_svg(placed, name, {s.name for s in sections}),
                         text=maps.venue_text(placed, {s.name: s.anchor for s in sections}),
                         papers=len(points), trustworthiness=_trust(data, None), shown=shown)


def _add_related(data: VenueMarts, sections: list[CategorySection]) -> None:
    """Each listed row's related papers (marts.paper_related, best first), its sub-theme
    (marts.paper_subthemes) and a second labeller's category (marts.label_audit)."""
    rows = {row.paper_id: row for section in sections for row in section.rows}
    if data.paper_subthemes is not None:
        for r in data.paper_subthemes.itertuples(index=False):
            row = rows.get(str(r.paper_id))
            if row is not None:
                row.subtheme, row.subtheme_label = plain_text(r.subtheme), plain_text(r.subtheme_label)
    if data.label_audit is not None:
        for r in data.label_audit.itertuples(index=False):
            row = rows.get(str(r.paper_id))
            if row is not None:
                row.audits.append(Audit(plain_text(r.taxonomy), plain_text(r.audit_category),
                                        plain_text(r.audit_confidence), bool(present(r.is_disputed))))
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


def _paper_row(row: dict[str, Any], signals: list[str], uncertain: dict[str, dict[str, Any]],
               in_sets: dict[str, dict[str, Any]], top_count: int,
               moved: dict[str, Movement] | None = None) -> PaperRow:
    paper = PaperRow(
        rank=int(row["category_rank"]),
        paper_id=str(row["paper_id"]),
        title=title_text(row["title"]),
        url=safe_url(present(row["forum_url"])),
        category=str(row["category"]),
        authors=plain_text(row.get("authors")),
        abstract=plain_text(row.get("abstract")),
        status=plain_text(row.get("status")),
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
