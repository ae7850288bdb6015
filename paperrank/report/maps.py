"""The page's maps, drawn from `marts.paper_map_positions`: the venue's map coloured by category and
each category's map coloured by sub-theme, each with the same content as text beside it.

A map is static inline SVG (no outside script, nothing to fetch): the page reads as a report with
scripts off, and the page's own script (templates/map.js) only changes classes (a picked paper's dot
is filled), follows clicks and moves the keyboard's focus. Every text node and attribute goes
through svg.escape, so a hostile title stays text. ICLR 2026's page must stay under 2 MB with its
7,015 dots, so a dot is as short as SVG allows: a category's dots are circles grouped by sub-theme
(the group carries the colour and the sub-theme key, CSS the radius), whole units of a 400-unit
viewBox (a quarter of a percent of the map, below a dot's size); only the top N carry a title and
take the keyboard's focus (every other paper's title is one search away); the venue's map, which no
one picks from, is one path of dots per category.

A map draws at most MAX_DOTS dots: a venue of a million papers would make a page of tens of
megabytes that no browser draws usably. Above it, a map draws the top N of its category (always)
and an evenly spread sample of the others (every n-th by paper id, so the same papers on every
build), and its caption says how many of how many papers it shows; its text alternative and its
colours still count every paper.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
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
MAX_DOTS = 10_000  # dots a map draws at most (ICLR 2026's largest map, the venue's, has 5,358)


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
    papers: int = 0  # the category's papers ...
    shown: int = 0   # ... and how many of them the map draws (at most MAX_DOTS)


@dataclass(frozen=True)
class VenueMap:
    """The overview's map of every paper of the venue, coloured by category."""

    svg: Markup
    text: Markup
    papers: int
    trustworthiness: float | None
    shown: int = 0  # the papers the map draws (at most MAX_DOTS)


@dataclass(frozen=True)
class Dot:
    """One paper on a map: its id, its place in viewBox units, and its group's key and label
    ("" for a paper in no group)."""

    paper_id: str
    x: int
    y: int
    key: str
    label: str


def dots(points: pd.DataFrame, key: str, label: str) -> list[Dot]:
    """The map's papers (paper_id, x, y and the group columns `key`/`label`) by paper id, placed
    on the viewBox (y up), in one pass over the rows (pandas per group would cost a third of a
    second on ICLR 2026's seven maps)."""
    def text(value: object) -> str:
        if isinstance(value, str):
            return value
        return "" if value is None or pd.isna(value) else str(value)

    found = [Dot(str(paper), _place(x), _place(1 - float(y)), text(k), text(name))
             for paper, x, y, k, name in zip(points["paper_id"], points["x"], points["y"],
                                             points[key], points[label], strict=True)]
    return sorted(found, key=lambda d: d.paper_id)


def drawn(placed: list[Dot], kept: set[str]) -> list[Dot]:
    """The dots a map draws: every one when they are at most MAX_DOTS; else the papers of `kept`
    (the top N) and an evenly spread sample of the others (by paper id, as `placed` is ordered),
    MAX_DOTS in all, in paper id order."""
    limit = MAX_DOTS
    if len(placed) <= limit:
        return placed
    top = [i for i, dot in enumerate(placed) if dot.paper_id in kept]
    others = np.setdiff1d(np.arange(len(placed)), top)
    room = max(0, limit - len(top))
    picked = others[np.linspace(0, len(others) - 1, room).round().astype(np.int64)] if room else others[:0]
    return [placed[i] for i in sorted(set(top) | set(picked.tolist()))]


def groups(placed: list[Dot]) -> list[Group]:
    """The map's colour groups, largest first (ties by key, so the same data gives the same
    colours); papers without a group are grey and in none."""
    counts: dict[str, int] = {}
    labels: dict[str, str] = {}
    for dot in placed:
        if dot.key:
            counts[dot.key] = counts.get(dot.key, 0) + 1
            labels.setdefault(dot.key, dot.label or dot.key)
    ordered = sorted(counts, key=lambda k: (-counts[k], k))
    return [Group(k, labels[k], PALETTE[i % len(PALETTE)], counts[k]) for i, k in enumerate(ordered)]


def _place(value: float) -> int:
    return round(MARGIN + float(value) * (SIZE - 2 * MARGIN))


def _view(placed: list[Dot]) -> str:
    """The viewBox: the map's width, and its height as the papers span it (a map is wider than
    tall or square: the layout's larger span is 1), so that a wide map leaves no empty band."""
    top = min((d.y for d in placed), default=0) - MARGIN
    bottom = max((d.y for d in placed), default=SIZE) + MARGIN
    return f"0 {top} {SIZE} {bottom - top}"


def _swatch(colour: str) -> str:
    return (f'<svg class="swatch" viewBox="0 0 10 10" aria-hidden="true">'
            f'<rect width="10" height="10" fill="{colour}"/></svg>')


def category_svg(placed: list[Dot], titles: dict[str, str], name: str) -> Markup:
    """A category's map: `placed` its papers by sub-theme (dots(points, "subtheme",
    "subtheme_label")); the papers of
    `titles` (the top N, by id: the title a dot shows) are ringed, focusable and titled, and
    drawn last, above the others. Every dot carries its paper's id (the script fills a picked
    paper's dot and jumps to its row); its group carries the sub-theme. Colours follow every
    paper; the dots drawn are drawn(placed, titles)."""
    found = groups(placed)
    colours = {g.key: g.colour for g in found} | {"": OTHER}
    buckets: dict[tuple[bool, str], list[Dot]] = {}
    for dot in drawn(placed, set(titles)):
        buckets.setdefault((dot.paper_id in titles, dot.key), []).append(dot)
    parts = [f'<svg class="paper-map" viewBox="{_view(placed)}" role="group" '
             f'aria-label="{escape(name)}">']
    for top in (False, True):
        for group in [g.key for g in found] + [""]:
            members = buckets.get((top, group))
            if not members:
                continue
            ring = ' class="t"' if top else ""
            parts.append(f'<g data-s="{escape(group)}" fill="{colours[group]}" '
                         f'stroke="{colours[group]}"{ring}>')
            for dot in members:
                where = f'data-p="{escape(dot.paper_id)}" cx="{dot.x}" cy="{dot.y}"'
                if top:
                    parts.append(f'<circle {where} tabindex="0" role="link">'
                                 f"<title>{escape(titles[dot.paper_id])}</title></circle>")
                else:
                    parts.append(f"<circle {where}/>")
            parts.append("</g>")
    parts.append("</svg>")
    return Markup("".join(parts))


def venue_groups(placed: list[Dot], ranked: set[str]) -> list[Group]:
    """The venue map's groups: the ranked categories in colours, largest first, then the
    categories not ranked in grey (on ICLR 2026 "Other" holds 3,700 of 5,358 papers: coloured,
    it would hide the categories the page is about)."""
    found = groups(placed)
    coloured = [g for g in found if g.key in ranked]
    return ([Group(g.key, g.label, PALETTE[i % len(PALETTE)], g.count) for i, g in enumerate(coloured)]
            + [Group(g.key, g.label, OTHER, g.count) for g in found if g.key not in ranked])


def venue_svg(placed: list[Dot], name: str, ranked: set[str]) -> Markup:
    """The venue's map (`placed`: dots(points, "category", "category")): one path of round dots
    per category (a ranked one in its colour, drawn above the grey of the others; titled with
    its name on hover), no dot focusable: the overview's text says the same. Colours follow
    every paper; the dots drawn are drawn(placed, set())."""
    found = venue_groups(placed, ranked)
    colours = {g.key: g.colour for g in found} | {"": OTHER}
    shown = drawn(placed, set())
    parts = [f'<svg class="paper-map venue-map" viewBox="{_view(placed)}" role="img" '
             f'aria-label="{escape(name)}">']
    for group in [""] + [g.key for g in reversed(found)]:  # the grey first, the largest last
        members = [(d.x, d.y) for d in shown if d.key == group]
        if members:
            parts.append(f'<path stroke="{colours[group]}" d="{_dots_path(members)}">'
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


def category_text(placed: list[Dot], top: list[tuple[str, str, int, str]],
                  top_count: int) -> Markup:
    """A category map's content as text: each sub-theme (its colour, label and paper count) and
    its top-N papers in rank order, each a link to its row named by its rank, its title in the
    link's title (the row has it whole). `top` is (paper_id, row anchor, rank, title)."""
    subtheme_of = {d.paper_id: d.key for d in placed}
    items = []
    for group in groups(placed):
        named = [f'<a href="#{escape(anchor)}" title="{escape(title)}">#{rank}</a>'
                 for paper, anchor, rank, title in top if subtheme_of.get(paper) == group.key]
        items.append(f"<li>{_swatch(group.colour)} {escape(group.label)}: {group.count:,} "
                     f"{'paper' if group.count == 1 else 'papers'}"
                     + (f"; top {top_count}: {', '.join(named)}" if named else "") + "</li>")
    return Markup(f'<ul class="map-groups">{"".join(items)}</ul>')


def venue_text(placed: list[Dot], anchors: dict[str, str]) -> Markup:
    """The venue map's content as text: each category (its colour and paper count), a ranked
    category (one of `anchors`) linked to its section, the others in grey."""
    items = []
    for group in venue_groups(placed, set(anchors)):
        label = escape(group.label)
        if group.key in anchors:
            label = f'<a href="#{escape(anchors[group.key])}">{label}</a>'
        else:
            label += " (not ranked)"
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
