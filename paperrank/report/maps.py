"""The page's maps: one inline SVG per map of `marts.paper_map_positions` (the venue's map coloured
by category, each category's coloured by sub-theme), with the same content as text beside it.

The map is drawn as static SVG text so the page needs no outside script: each dot is a focusable
element carrying the paper's id (the page's own script fills it when the paper is picked and jumps
to its row on click or Enter) and an SVG <title> with the paper's title, which browsers show on
hover and screen readers read on focus.  Every text node and attribute goes through svg.escape, so
a hostile title stays text.  Coordinates are in [0, 1] and written to 0.1 of a 400-unit viewBox:
finer than a screen shows and short enough to keep ICLR 2026's page under its size budget.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
from markupsafe import Markup

from paperrank.report.svg import escape, num

SIZE = 400.0  # the viewBox's side; the SVG scales to its box's width (width:100%)
MARGIN = 6.0
RADIUS = 3.0
RING = 5.0
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


def groups(points: pd.DataFrame, key: str, label: str) -> list[Group]:
    """The map's colour groups, largest first (ties by key, so the same data gives the same
    colours); papers without a group are grey."""
    known = points[points[key].notna()]
    counts = (known.groupby(key, sort=True)
              .agg(count=("paper_id", "size"), label=(label, "first"))
              .reset_index()
              .sort_values(["count", key], ascending=[False, True], kind="mergesort"))
    return [Group(str(row[key]), str(row["label"]) if pd.notna(row["label"]) else str(row[key]),
                  PALETTE[i % len(PALETTE)], int(row["count"]))
            for i, row in enumerate(counts.to_dict("records"))]


def _place(value: float) -> str:
    return num(MARGIN + float(value) * (SIZE - 2 * MARGIN))


def map_svg(points: pd.DataFrame, titles: dict[str, str], top: set[str], key: str, label: str,
            name: str) -> Markup:
    """One map as inline SVG: `points` has paper_id, x, y and the group columns `key`/`label`;
    the top-N papers are ringed; `name` labels the whole map for screen readers."""
    colours = {g.key: g.colour for g in groups(points, key, label)}
    ordered = points.sort_values("paper_id", kind="mergesort")
    parts = [f'<svg class="paper-map" viewBox="0 0 {num(SIZE)} {num(SIZE)}" role="group" '
             f'aria-label="{escape(name)}" width="100%" preserveAspectRatio="xMidYMid meet">']
    for row in ordered.to_dict("records"):
        paper = str(row["paper_id"])
        group = row[key]
        colour = colours.get(str(group), OTHER) if pd.notna(group) else OTHER
        ring = paper in top
        cx, cy = _place(row["x"]), _place(1 - float(row["y"]))
        title = titles.get(paper, paper)
        parts.append(
            f'<g class="map-dot{" map-top" if ring else ""}" data-paper="{escape(paper)}" '
            f'tabindex="0" role="link" aria-label="{escape(title)}">'
            f'<title>{escape(title)}</title>'
            + (f'<circle class="map-ring" cx="{cx}" cy="{cy}" r="{num(RING)}" fill="none" '
               f'stroke="#222222" stroke-width="1.2"/>' if ring else "")
            + f'<circle class="map-mark" cx="{cx}" cy="{cy}" r="{num(RADIUS)}" '
              f'fill="{colour}" fill-opacity="0.35" stroke="{colour}"/></g>')
    parts.append("</svg>")
    return Markup("".join(parts))


def map_text(points: pd.DataFrame, titles: dict[str, str], top: list[str], key: str,
             label: str) -> Markup:
    """The map's content as text for keyboards and screen readers: each group with its paper
    count and its top-N papers (in rank order)."""
    tops = set(top)
    items = []
    for group in groups(points, key, label):
        members = set(points.loc[points[key].astype(str) == group.key, "paper_id"].astype(str))
        named = [titles.get(p, p) for p in top if p in members and p in tops]
        listed = "".join(f"<li>{escape(t)}</li>" for t in named)
        items.append(f'<li><span class="map-key" style="background:{group.colour}"></span>'
                     f'{escape(group.label)}: {group.count} papers'
                     + (f", top N: <ul>{listed}</ul>" if listed else "") + "</li>")
    return Markup(f'<ul class="map-groups">{"".join(items)}</ul>')


def coverage(picked: list[str], subtheme_of: dict[str, str], total: int) -> tuple[int, int]:
    """How many of a category's `total` sub-themes the picked papers cover (the page's script
    recounts this as picks change; this is its value when the page opens)."""
    return len({subtheme_of[p] for p in picked if p in subtheme_of}), total


def near_duplicates(related: pd.DataFrame, picked: list[str],
                    threshold: float) -> list[tuple[str, str]]:
    """Pairs of picked papers each in the other's closest papers with similarity above
    `threshold` (paper_related's paper_id, related_paper_id, similarity)."""
    chosen = set(picked)
    rows = related[related["paper_id"].isin(chosen) & related["related_paper_id"].isin(chosen)
                   & (related["similarity"] > threshold)]
    links = {(str(a), str(b)) for a, b in zip(rows["paper_id"], rows["related_paper_id"], strict=True)}
    return sorted((a, b) for a, b in links if a < b and (b, a) in links)
