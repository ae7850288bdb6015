"""The report's plots: SVG drawn by paperrank.report.svg and inlined as data URIs.

Each plot is an <img> whose source is the SVG itself, so the page needs nothing beside it, the
plots' contents cannot clash with each other or the page, and `alt` carries the text
alternative.  Drawing is deterministic (the same marts give the same bytes) and text stays text.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from markupsafe import Markup

from paperrank.report.svg import (
    MUTED,
    Canvas,
    Key,
    Linear,
    data_uri,
    legend,
    nice_domain,
    nice_ticks,
    text_width,
    x_axis,
    y_axis,
)

# Okabe-Ito: distinguishable for the common colour-vision deficiencies, and in greyscale print.
SIGNAL_COLOURS = {
    "contribution_mean": "#0072B2",
    "rating_mean": "#E69F00",
    "confidence_mean": "#009E73",
    "soundness_mean": "#CC79A7",
    "presentation_mean": "#56B4E9",
    "rating_std": "#D55E00",
}
FALLBACK_COLOURS = ("#999999", "#F0E442", "#000000")
BAND_COLOURS = {"secure": "#0072B2", "borderline": "#E69F00", "outside": "#999999"}
TOP_COLOUR = "#0072B2"
REST_COLOUR = "#BBBBBB"
CUT_COLOUR = "#D55E00"
CONFIDENCE_COLOURS = {"high": "#0072B2", "medium": "#56B4E9", "low": "#E69F00", "none": "#DDDDDD"}
# matplotlib's "Blues", at nine stops, for the heatmap
BLUES = ("#f7fbff", "#deebf7", "#c6dbef", "#9ecae1", "#6baed6", "#4292c6", "#2171b5", "#08519c",
         "#08306b")
WIDTH = 660


@dataclass(frozen=True)
class Plot:
    """An SVG plot ready for an <img>: its data URI, its text alternative and its caption."""

    src: Markup
    alt: str
    caption: str


def signal_label(signal: str) -> str:
    """A reader's name for a signal column: contribution_mean -> contribution."""
    if signal == "rating_std":
        return "rating spread"
    return signal.removesuffix("_mean").replace("_", " ")


def short_title(title: str, limit: int = 34) -> str:
    """A title cut at a word boundary to fit beside a bar (the table has it in full)."""
    if len(title) <= limit:
        return title
    cut = title[:limit].rsplit(" ", 1)[0] if " " in title[:limit] else title[:limit]
    return cut.rstrip(" :,;-") + "\u2026"


def signal_colour(signal: str, position: int) -> str:
    return SIGNAL_COLOURS.get(signal, FALLBACK_COLOURS[position % len(FALLBACK_COLOURS)])


def plot(canvas: Canvas, alt: str, caption: str) -> Plot:
    return Plot(src=data_uri(canvas.svg()), alt=alt, caption=caption)


def why_here(rows: pd.DataFrame, signals: list[str], top_count: int, key: str,
             labels: list[str] | None = None) -> Plot:
    """Each paper's composite split into its weighted terms: positive terms stack to the right
    of zero, negative ones to the left, and a dot marks the composite."""
    labels = labels or [f"#{int(r)}" for r in rows["category_rank"]]
    n = len(rows)
    keys = [Key(signal_label(s), signal_colour(s, i)) for i, s in enumerate(signals)]
    keys.append(Key("composite", "#000000", "dot"))
    left_margin = 8 + max((text_width(label, 7.5) for label in labels), default=20)
    canvas = Canvas(WIDTH, 0)
    top = 8 + legend(canvas, keys, 10, 6, WIDTH - 20) + 6
    row_height = 19
    bottom = top + row_height * max(n, 1)
    canvas.height = bottom + 40
    terms = {s: rows[f"{s}_term"].fillna(0.0).to_numpy(dtype=float) for s in signals}
    positive = sum((np.clip(t, 0, None) for t in terms.values()), np.zeros(n))
    negative = sum((np.clip(t, None, 0) for t in terms.values()), np.zeros(n))
    composite = rows["local_top_overall"].to_numpy(dtype=float)
    low, high = nice_domain(min(0.0, float(negative.min(initial=0)), float(composite.min(initial=0))),
                            max(0.0, float(positive.max(initial=0)), float(composite.max(initial=0))))
    x = Linear(low, high, left_margin, WIDTH - 12)
    x_axis(canvas, x, bottom, "weighted term (z-score x weight); they add up to the composite",
           grid_to=top)
    y = [top + row_height * (i + 0.5) for i in range(n)]
    right, left = np.zeros(n), np.zeros(n)
    for position, signal in enumerate(signals):
        values = terms[signal]
        boxes = []
        for i in range(n):
            start = right[i] if values[i] >= 0 else left[i]
            a, b = x(start), x(start + values[i])
            boxes.append((min(a, b), y[i] - 0.36 * row_height, abs(b - a), 0.72 * row_height))
        canvas.rects(boxes, signal_colour(signal, position))
        right += np.clip(values, 0, None)
        left += np.clip(values, None, 0)
    canvas.line(x(0), top, x(0), bottom, "#444444", 0.8)
    canvas.dots(zip((x(c) for c in composite), y, strict=True), "#000000", 2.3)
    for label, y_i in zip(labels, y, strict=True):
        canvas.text(left_margin - 5, y_i + 2.7, label, 7.5, "end")
    if 0 < top_count < n:
        cut = top + row_height * top_count
        canvas.line(left_margin, cut, WIDTH - 12, cut, CUT_COLOUR, 1, "4 2")
        canvas.text(WIDTH - 12, cut - 3, f"top-{top_count} cut", 8.5, "end", CUT_COLOUR)
    strongest = [
        signal_label(max(signals, key=lambda s, row=row: row[f"{s}_term"] or 0.0))  # type: ignore[misc]
        for _, row in rows.head(3).iterrows()
    ] if signals else []
    alt = (f"Stacked bars of the weighted terms of the composite for ranks "
           f"{int(rows['category_rank'].min())} to {int(rows['category_rank'].max())}. "
           + (f"The largest term of the first three papers: {', '.join(strongest)}. "
              if strongest else "No weighted term differs from zero: with one paper, or papers whose "
              "scores are identical, every z-score is 0, so only the composite is drawn. ")
           + "The table above lists each paper's signals and composite.")
    return plot(canvas, alt, "Why here: each paper's composite split into its weighted terms.")


def distribution(scores: pd.Series, is_top: pd.Series, top_count: int, key: str) -> Plot:
    """Histogram of the category's composites, the top-N stacked in their own colour, with the
    cut (the lowest composite in the top-N) marked."""
    values = scores.to_numpy(dtype=float)
    top = is_top.to_numpy(dtype=bool)
    edges = np.histogram_bin_edges(values, bins=min(40, max(10, len(values) // 8)))
    top_counts, _ = np.histogram(values[top], bins=edges)
    rest_counts, _ = np.histogram(values[~top], bins=edges)
    canvas = Canvas(WIDTH, 230)
    left, right, upper, bottom = 52, WIDTH - 12, 12, 190
    x = Linear(float(edges[0]), float(edges[-1]), left, right)
    y_high = max(1, int((top_counts + rest_counts).max(initial=0)))
    y_ticks = [t for t in nice_ticks(0, y_high, 4) if t == int(t)]
    y = Linear(0, max(y_high, y_ticks[-1]), bottom, upper)
    y_axis(canvas, y, left, "papers", y_ticks)
    x_axis(canvas, x, bottom, "composite (local_top_overall)", nice_ticks(float(edges[0]), float(edges[-1])))
    for counts, base, colour in ((top_counts, np.zeros(len(top_counts)), TOP_COLOUR),
                                 (rest_counts, top_counts, REST_COLOUR)):
        canvas.rects(((x(edges[i]), y(base[i] + counts[i]), x(edges[i + 1]) - x(edges[i]),
                       y(base[i]) - y(base[i] + counts[i])) for i in range(len(counts)) if counts[i]),
                     colour)
    cut = float(values[top].min()) if top.any() else None
    if cut is not None:
        canvas.line(x(cut), upper, x(cut), bottom, CUT_COLOUR, 1, "4 2")
        canvas.text(x(cut) + 3, upper + 9, f"cut {cut:.3f}", 8.5, fill=CUT_COLOUR)
    legend(canvas, [Key(f"top {top_count}", TOP_COLOUR), Key("below the cut", REST_COLOUR)],
           left + 8, upper + 2, 220)
    alt = (f"Histogram of the composite of all {len(values)} ranked papers, from "
           f"{values.min():.3f} to {values.max():.3f}; the top {top_count} are highlighted"
           + (f" and the cut is at {cut:.3f}." if cut is not None else "."))
    return plot(canvas, alt,
                "Score distribution: every ranked paper of the category, the shortlist highlighted.")


def caterpillar(rows: pd.DataFrame, top_n: int, key: str) -> Plot:
    """Rank intervals (5th-95th percentile, dot at the median) of the papers around the cut,
    in the order of their rank, coloured by band.  The rank axis stops a little past the
    window's own ranks so the cut stays readable; an interval that runs further ends in an
    arrow at the axis' end."""
    n = len(rows)
    low = rows["rank_p05"].to_numpy(dtype=float)
    high = rows["rank_p95"].to_numpy(dtype=float)
    median = rows["rank_p50"].to_numpy(dtype=float)
    ranks = rows["category_rank"].to_numpy(dtype=float)
    bands = list(rows["rank_band"])
    limit = max(float(ranks.max()) if n else 1.0, top_n) * 1.5 + 2
    clipped = high > limit
    keys = [Key(f"{b} (band)", BAND_COLOURS.get(b, "#000000")) for b in dict.fromkeys(bands)
            if b is not None]
    keys += [Key("5th\u201395th percentile of rank", MUTED, "line"),
             Key("median rank", "#000000", "dot"), Key("the cut", CUT_COLOUR, "dashed")]
    if clipped.any():
        keys.append(Key(f"runs past rank {limit:.0f}", MUTED, "triangle"))
    canvas = Canvas(WIDTH, 0)
    upper = 8 + legend(canvas, keys, 10, 6, WIDTH - 20, 7.5) + 8
    left, right, bottom = 52, WIDTH - 12, upper + 200
    canvas.height = bottom + 40
    y = Linear(0, limit + 1, upper, bottom)  # rank 1 at the top
    y_axis(canvas, y, left, "rank (90% interval)", [t for t in nice_ticks(0, limit + 1) if t > 0],
           grid_to=right)
    step = (right - left) / max(n, 1)
    xs = [left + step * (i + 0.5) for i in range(n)]
    x = Linear(0, max(n, 1), left, right)
    x_axis(canvas, x, bottom, "papers in rank order (rank in the published list)",
           [i + 0.5 for i in range(n)], labels=[str(int(r)) for r in ranks], size=7)
    for band in dict.fromkeys(bands):
        colour = BAND_COLOURS.get(band, "#000000")
        chosen = [i for i in range(n) if bands[i] == band]
        canvas.segments(((xs[i], y(low[i]), xs[i], y(min(high[i], limit))) for i in chosen), colour, 2.2)
        canvas.triangles(((xs[i], y(limit)) for i in chosen if clipped[i]), colour, 3.5)
    canvas.dots(((xs[i], y(median[i])) for i in range(n) if median[i] <= limit + 1), "#000000", 2)
    cut = y(top_n + 0.5)
    canvas.line(left, cut, right, cut, CUT_COLOUR, 1, "4 2")
    canvas.text(right, cut - 3, f"top-{top_n} cut", 8.5, "end", CUT_COLOUR)
    counts = rows["rank_band"].value_counts()
    alt = (f"Rank intervals of the papers ranked {int(rows['category_rank'].min())} to "
           f"{int(rows['category_rank'].max())}, around the top-{top_n} cut: "
           + ", ".join(f"{int(c)} {band}" for band, c in counts.items())
           + (f"; {int(clipped.sum())} intervals run past rank {limit:.0f}, the axis' end"
              if clipped.any() else "")
           + ". The table lists each interval.")
    return plot(canvas, alt, "How sure the place is: each paper's rank interval around the cut.")


def blues(share: float) -> str:
    """A colour of the Blues ramp for a share in [0, 1] (the nearest of its nine stops)."""
    return BLUES[int(round(min(max(share, 0.0), 1.0) * (len(BLUES) - 1)))]


def heatmap(table: pd.DataFrame, key: str) -> Plot:
    """Counts of papers per primary area (rows) and category (columns), annotated."""
    counts = table.to_numpy(dtype=float)
    rows, columns = table.shape
    shown = np.log1p(counts)
    most = float(shown.max()) if shown.size else 0.0
    row_labels = [str(i) for i in table.index]
    column_labels = [str(c) for c in table.columns]
    left = 10 + max((text_width(label, 8.5) for label in row_labels), default=40)
    cell_w, cell_h = 62, 22
    head = 14 + 0.6 * max((text_width(label, 8.5) for label in column_labels), default=20)
    canvas = Canvas(left + cell_w * columns + 0.8 * max((text_width(c, 8.5) for c in column_labels[-1:]),
                                                         default=0) + 12,
                    head + cell_h * rows + 10)
    for j, label in enumerate(column_labels):
        cx = left + cell_w * (j + 0.5)
        canvas.text(cx, head - 4, label, 8.5, rotate=-35)
    for i, label in enumerate(row_labels):
        canvas.text(left - 6, head + cell_h * (i + 0.5) + 3, label, 8.5, "end")
    for (i, j), value in np.ndenumerate(counts):
        share = shown[i, j] / most if most else 0.0
        canvas.rect(left + cell_w * j, head + cell_h * i, cell_w, cell_h, blues(share))
        if value:
            canvas.text(left + cell_w * (j + 0.5), head + cell_h * (i + 0.5) + 3, f"{int(value)}", 7.5,
                        "middle", "#ffffff" if share > 0.6 else "#000000")
    alt = (f"Heatmap of accepted papers by primary area ({rows} rows) and category "
           f"({columns} columns). The table below it gives the same counts.")
    return plot(canvas, alt, "Category against primary area: accepted papers, ranked or not.")


def confidence(table: pd.DataFrame, key: str) -> Plot:
    """Share of each label confidence per category, as 100% stacked bars."""
    shares = table.div(table.sum(axis=1).where(lambda s: s > 0), axis=0).fillna(0.0)
    labels = [str(c) for c in table.index]
    keys = [Key(str(level), CONFIDENCE_COLOURS.get(str(level), "#999999")) for level in table.columns]
    canvas = Canvas(WIDTH, 0)
    upper = 8 + legend(canvas, keys, 10, 6, WIDTH - 20) + 6
    left = 10 + max((text_width(label, 8.5) for label in labels), default=40)
    row_height = 28
    bottom = upper + row_height * len(labels)
    canvas.height = bottom + 26
    x = Linear(0, 1, left, WIDTH - 16)
    x_axis(canvas, x, bottom, None, [0, 0.2, 0.4, 0.6, 0.8, 1.0],
           labels=["0%", "20%", "40%", "60%", "80%", "100%"])
    start = np.zeros(len(labels))
    for level in table.columns:
        values = shares[level].to_numpy(dtype=float)
        canvas.rects(((x(start[i]), upper + row_height * (i + 0.15), x(start[i] + values[i]) - x(start[i]),
                       row_height * 0.7) for i in range(len(labels))),
                     CONFIDENCE_COLOURS.get(str(level), "#999999"))
        start += values
    for i, label in enumerate(labels):
        canvas.text(left - 6, upper + row_height * (i + 0.5) + 3, label, 8.5, "end")
    alt = ("Share of high, medium and low label confidence among the ranked papers of each "
           "category. The table beside it gives the counts.")
    return plot(canvas, alt, "Share of each label confidence among the ranked papers.")


def intervals(labels: list[str], values: list[float], lows: list[float], highs: list[float],
              ceilings: list[float | None], colours: list[str], keys: list[Key],
              axis_label: str) -> Canvas:
    """One row per label: a dot at its value, a line over its interval and a tick at its
    ceiling; reference lines at 0 and 0.5 (chance for an AUC)."""
    canvas = Canvas(WIDTH, 0)
    upper = 8 + legend(canvas, keys, 10, 6, WIDTH - 20, 7.5) + 6
    left = 10 + max((text_width(label, 7.5) for label in labels), default=40)
    row_height = 22
    bottom = upper + row_height * len(labels)
    canvas.height = bottom + 40
    finite = [v for v in (*values, *lows, *highs, *(c for c in ceilings if c is not None), 0.0, 0.5)
              if v is not None and np.isfinite(v)]
    low, high = nice_domain(min(finite), max(finite))
    x = Linear(low, high, left, WIDTH - 14)
    x_axis(canvas, x, bottom, axis_label, grid_to=upper)
    canvas.line(x(0.5), upper, x(0.5), bottom, "#BBBBBB", 0.8, "1 2")
    canvas.line(x(0.0), upper, x(0.0), bottom, "#BBBBBB", 0.8)
    for i, label in enumerate(labels):
        y = upper + row_height * (i + 0.5)
        canvas.text(left - 6, y + 2.7, label, 7.5, "end")
        if lows[i] is not None and highs[i] is not None and np.isfinite(lows[i]) and np.isfinite(highs[i]):
            canvas.line(x(lows[i]), y, x(highs[i]), y, colours[i], 2)
        if values[i] is not None and np.isfinite(values[i]):
            canvas.dots([(x(values[i]), y)], colours[i], 3)
        ceiling = ceilings[i]
        if ceiling is not None and np.isfinite(ceiling):
            canvas.line(x(ceiling), y - 6, x(ceiling), y + 6, "#000000", 1.4)
    return canvas
