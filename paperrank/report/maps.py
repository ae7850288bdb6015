"""The page's maps, drawn from `marts.paper_map_positions`: the venue's map coloured by category
and each category's map coloured by sub-theme, each with the same content as text beside it.

A map is static inline SVG (no outside script, nothing to fetch): the page reads as a report with
scripts off, and the page's own script only changes classes (a picked paper's dot is filled) and
follows clicks.  Every text node and attribute goes through svg.escape, so a hostile title stays
text.  ICLR 2026's page must stay under 2 MB with its 7,015 dots, so a dot is as short as SVG
allows: a category's dots are circles grouped by sub-theme (the group carries the colour and the
sub-theme key, CSS the radius), whole units of a 400-unit viewBox (a quarter of a percent of the
map, below a dot's size); only the top N carry a title and take the keyboard's focus (every other
paper's title is one search away, and thirty tab stops a map are already many); the venue's map,
which no one picks from, is one path of dots per category.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pandas as pd
from markupsafe import Markup

from paperrank.report.svg import escape

SIZE = 400  # the viewBox's side; the SVG scales to its box's width
MARGIN = 6
BAND = 16  # the venue map's dots are written band by band of this height (short relative moves)
# colour-blind-safe qualitative palette (Okabe-Ito, then Tol's muted); groups past it repeat
PALETTE = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7",
           "#332288", "#88CCEE", "#44AA99", "#117733", "#999933", "#DDCC77", "#882255")
OTHER = "#BBBBBB"


@dataclass(frozen=True)
class Group:
    """One colour of a map: a sub-theme (category maps) or a category (the venue's map)."""

    key: str
    label: str
    colour: str
    count: int


@dataclass(frozen=True)
class CategoryMap:
    """What a category section shows of its map: the SVG, its text alternative, how many
    sub-themes the picks can cover, and the near-duplicate pairs the page's script watches."""

    svg: Markup
    text: Markup
    subthemes: int
    trustworthiness: float | None
    near_pairs: str  # JSON: [[paper_id, paper_id, similarity], ...]


@dataclass(frozen=True)
class VenueMap:
    """The overview's map of every paper of the venue, coloured by category."""

    svg: Markup
    text: Markup
    papers: int
    trustworthiness: float | None


def groups(points: pd.DataFrame, key: str, label: str) -> list[Group]:
    """The map's colour groups, largest first (ties by key, so the same data gives the same
    colours); papers without a group are grey and in none."""
    known = points[points[key].notna()]
    counts = (known.groupby(known[key].astype(str), sort=True)
              .agg(count=("paper_id", "size"), label=(label, "first"))
              .reset_index()
              .sort_values(["count", key], ascending=[False, True], kind="mergesort"))
    return [Group(str(row[key]), str(row["label"]) if pd.notna(row["label"]) else str(row[key]),
                  PALETTE[i % len(PALETTE)], int(row["count"]))
            for i, row in enumerate(counts.to_dict("records"))]


def _place(value: float) -> int:
    return round(MARGIN + float(value) * (SIZE - 2 * MARGIN))


def _view(points: pd.DataFrame) -> str:
    """The viewBox: the map's width, and its height as the papers span it (a map is wider than
    tall or square: the layout's larger span is 1), so that a wide map leaves no empty band."""
    ys = [_place(1 - float(y)) for y in points["y"]]
    top, bottom = min(ys, default=0) - MARGIN, max(ys, default=SIZE) + MARGIN
    return f"0 {top} {SIZE} {bottom - top}"


def _keys(points: pd.DataFrame, key: str) -> pd.Series:
    return points[key].map(lambda v: str(v) if pd.notna(v) else "")


def _swatch(colour: str) -> str:
    return (f'<svg class="swatch" viewBox="0 0 10 10" aria-hidden="true">'
            f'<rect width="10" height="10" fill="{colour}"/></svg>')


def category_svg(points: pd.DataFrame, titles: dict[str, str], name: str) -> Markup:
    """A category's map: `points` has paper_id, x, y, subtheme and subtheme_label; the papers of
    `titles` (the top N, by id: the title a dot shows) are ringed, focusable and titled, and
    drawn last, above the others. Every dot carries its paper's id (the script fills a picked
    paper's dot and jumps to its row); its group carries the sub-theme."""
    found = groups(points, "subtheme", "subtheme_label")
    colours = {g.key: g.colour for g in found} | {"": OTHER}
    order = [g.key for g in found] + [""]
    keyed = points.assign(_key=_keys(points, "subtheme")).sort_values("paper_id", kind="mergesort")
    parts = [f'<svg class="paper-map" viewBox="{_view(points)}" role="group" '
             f'aria-label="{escape(name)}">']
    for top in (False, True):
        for group in order:
            members = keyed[(keyed["_key"] == group)
                            & (keyed["paper_id"].astype(str).isin(titles.keys()) == top)]
            if members.empty:
                continue
            ring = ' class="t"' if top else ""
            parts.append(f'<g data-s="{escape(group)}" fill="{colours[group]}" '
                         f'stroke="{colours[group]}"{ring}>')
            for paper, x, y in zip(members["paper_id"].astype(str), members["x"], members["y"],
                                   strict=True):
                where = f'data-p="{escape(paper)}" cx="{_place(x)}" cy="{_place(1 - float(y))}"'
                if top:
                    title = escape(titles[paper])
                    parts.append(f'<circle {where} tabindex="0" role="link">'
                                 f"<title>{title}</title></circle>")
                else:
                    parts.append(f"<circle {where}/>")
            parts.append("</g>")
    parts.append("</svg>")
    return Markup("".join(parts))


def venue_svg(points: pd.DataFrame, name: str) -> Markup:
    """The venue's map: one path of round dots per category (coloured by it, titled with its
    name on hover), no dot focusable: the overview's text says the same."""
    found = groups(points, "category", "category")
    colours = {g.key: g.colour for g in found} | {"": OTHER}
    keyed = points.assign(_key=_keys(points, "category")).sort_values("paper_id", kind="mergesort")
    parts = [f'<svg class="paper-map venue-map" viewBox="{_view(points)}" role="img" '
             f'aria-label="{escape(name)}">']
    for group in [g.key for g in found] + [""]:
        members = keyed[keyed["_key"] == group]
        if members.empty:
            continue
        dots = _dots_path([(_place(x), _place(1 - float(y)))
                           for x, y in zip(members["x"], members["y"], strict=True)])
        parts.append(f'<path stroke="{colours[group]}" d="{dots}">'
                     f'<title>{escape(group or "no category")}</title></path>')
    parts.append("</svg>")
    return Markup("".join(parts))


def _dots_path(points: list[tuple[int, int]]) -> str:
    """Round dots as one SVG path: a zero-length segment per dot (the stroke's round cap draws
    it), each a relative move from the one before, in bands of BAND units read back and forth,
    so that moves are short (ICLR 2026's venue map: 30 KB against 52 KB of absolute moves); two
    papers on the same spot are one dot."""
    ordered = sorted(set(points), key=lambda p: (p[1] // BAND, p[0] if p[1] // BAND % 2 == 0
                                                  else -p[0], p[1]))
    path, before = [], None
    for x, y in ordered:
        if before is None:
            path.append(f"M{x} {y}h0")
        else:
            dx, dy = x - before[0], y - before[1]
            path.append(f"m{dx}{'' if dy < 0 else ' '}{dy}h0")
        before = (x, y)
    return "".join(path)


def category_text(points: pd.DataFrame, top: list[tuple[str, str, int, str]],
                  top_count: int) -> Markup:
    """A category map's content as text: each sub-theme (its colour, label and paper count) and
    its top-N papers in rank order, each a link to its row named by its rank, its title in the
    link's title (the row has it whole). `top` is (paper_id, row anchor, rank, title)."""
    subtheme_of = dict(zip(points["paper_id"].astype(str), _keys(points, "subtheme"),
                           strict=True))
    items = []
    for group in groups(points, "subtheme", "subtheme_label"):
        named = [f'<a href="#{escape(anchor)}" title="{escape(title)}">#{rank}</a>'
                 for paper, anchor, rank, title in top if subtheme_of.get(paper) == group.key]
        items.append(f"<li>{_swatch(group.colour)} {escape(group.label)}: {group.count:,} "
                     f"{'paper' if group.count == 1 else 'papers'}"
                     + (f"; top {top_count}: {', '.join(named)}" if named else "") + "</li>")
    return Markup(f'<ul class="map-groups">{"".join(items)}</ul>')


def venue_text(points: pd.DataFrame, anchors: dict[str, str]) -> Markup:
    """The venue map's content as text: each category (its colour and paper count), a ranked
    category linked to its section (`anchors`)."""
    items = []
    for group in groups(points, "category", "category"):
        label = escape(group.label)
        if group.key in anchors:
            label = f'<a href="#{escape(anchors[group.key])}">{label}</a>'
        items.append(f"<li>{_swatch(group.colour)} {label}: {group.count:,} "
                     f"{'paper' if group.count == 1 else 'papers'}</li>")
    return Markup(f'<ul class="map-groups">{"".join(items)}</ul>')


def near_duplicates(related: pd.DataFrame, papers: set[str],
                    threshold: float) -> list[tuple[str, str, float]]:
    """Pairs of `papers` each in the other's related papers (paper_related's paper_id,
    related_paper_id, similarity) with both similarities above `threshold`, with the lower of
    the two; each pair once, the lower id first."""
    rows = related[related["paper_id"].astype(str).isin(papers)
                   & related["related_paper_id"].astype(str).isin(papers)
                   & (related["similarity"] > threshold)]
    links = {(str(a), str(b)): float(s) for a, b, s in zip(
        rows["paper_id"], rows["related_paper_id"], rows["similarity"], strict=True)}
    return sorted((a, b, min(s, links[(b, a)])) for (a, b), s in links.items()
                  if a < b and (b, a) in links)


def near_pairs_json(pairs: list[tuple[str, str, float]]) -> str:
    """The pairs as the page's script reads them (a data attribute, escaped by the template)."""
    return json.dumps([[a, b, round(s, 3)] for a, b, s in pairs], separators=(",", ":"))
