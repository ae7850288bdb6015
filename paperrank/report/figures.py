"""The report's plots: matplotlib figures rendered to SVG and inlined as data URIs.

Each plot is an <img> whose source is the SVG itself, so the page needs nothing beside it, the
plots' internal ids cannot clash with each other or the page, and `alt` carries the text
alternative.  Rendering is deterministic: a fixed hash salt per figure, no date or creator in
the metadata, text kept as text (svg.fonttype none), and no math parsing of labels.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import matplotlib as mpl
import matplotlib.axes
import matplotlib.lines
import matplotlib.ticker
import numpy as np
import pandas as pd
from markupsafe import Markup
from matplotlib.artist import Artist
from matplotlib.figure import Figure
from matplotlib.patches import Patch, PathPatch
from matplotlib.path import Path as MplPath

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
CONFIDENCE_COLOURS = {"high": "#0072B2", "medium": "#56B4E9", "low": "#E69F00", "none": "#DDDDDD"}

STYLE: Any = {  # matplotlib's rc names (typed there as one Literal of every name)
    "svg.fonttype": "none",
    "text.parse_math": False,
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 10,
    "axes.titleweight": "bold",
    "axes.titlelocation": "left",
    "legend.frameon": False,
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans", "Liberation Sans", "Arial"],
}
# characters kept as they are in the SVG data URI: all but those an HTML attribute (", &) or a
# URL (%, #) would read otherwise, and non-ASCII (percent-encoded as UTF-8)
URI_SAFE = " <>/=:;,.'()-_!*~$@?[]{}|^`+"
_TAG = re.compile(r"<[^<>]+>")
_QUOTED = re.compile(r'(\s[\w:.-]+)="([^"\']*)"')
_GEOMETRY = re.compile(r'(\s(?:d|x|y|x1|x2|y1|y2|width|height|viewBox|transform|points)=")([^"]*)"')
_DECIMALS = re.compile(r"(-?\d+\.\d)\d+")


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


def compact(svg: str) -> str:
    """The SVG with its coordinates to 0.1 pt (a tenth of a point is below what a screen or
    a printer shows) and without the indentation and metadata matplotlib writes: the page's
    plots are most of its weight.  Text is not touched.

    Attribute values are put in single quotes (where they hold none): the data URI sits in a
    double-quoted HTML attribute, so every `"` costs three bytes (%22) and `'` one. The XML
    declaration and DOCTYPE, which an <img> does not read, go."""
    svg = re.sub(r"^<\?xml[^>]*\?>\s*", "", svg)
    svg = re.sub(r"^<!DOCTYPE[^>]*>\s*", "", svg)
    svg = re.sub(r"<metadata>.*?</metadata>", "", svg, flags=re.S)
    svg = re.sub(r' transform="rotate\(-?0 [-\d.e]+ [-\d.e]+\)"', "", svg)  # no-op rotations
    # one font rule for the whole plot instead of one per text element
    svg = re.sub(r"font-family: [^;\"]*sans-serif;? ?", "", svg)
    svg = svg.replace("<style type=\"text/css\">", "<style type=\"text/css\">text{font-family:"
                      "'DejaVu Sans','Liberation Sans',Arial,sans-serif}", 1)
    svg = _GEOMETRY.sub(lambda m: m.group(1) + " ".join(
        _DECIMALS.sub(r"\1", m.group(2)).split()) + '"', svg)
    # inside tags only (matplotlib escapes < and > in text, so a text node never matches)
    svg = _TAG.sub(lambda tag: _QUOTED.sub(r"\1='\2'", tag.group(0)), svg)
    return re.sub(r">\s+<", "><", svg)


def render(fig: Figure, key: str, alt: str, caption: str) -> Plot:
    """SVG of `fig` as a data URI; `key` salts the SVG's ids so the output is repeatable.
    Percent-encoded rather than base64 (a third smaller for SVG's text)."""
    buffer = io.StringIO()
    with mpl.rc_context({**STYLE, "svg.hashsalt": f"paperrank-report-{key}"}):
        fig.savefig(buffer, format="svg", bbox_inches="tight",
                    metadata={"Date": None, "Creator": None})
    encoded = quote(compact(buffer.getvalue()), safe=URI_SAFE)
    # Markup: the template must not escape it again; it holds no `"` and no `&` (both are
    # percent-encoded), so it cannot leave its attribute
    return Plot(src=Markup(f"data:image/svg+xml,{encoded}"), alt=alt, caption=caption)


def bars(ax: mpl.axes.Axes, y: np.ndarray, width: np.ndarray, left: np.ndarray, colour: str,
         height: float) -> None:
    """Horizontal bars as ONE path (each bar a closed sub-path): the same picture as
    `barh`, at a fraction of the SVG it writes (one element instead of one per bar)."""
    drawn = width != 0
    if not drawn.any():
        return
    x0, x1 = left[drawn], left[drawn] + width[drawn]
    y0, y1 = y[drawn] - height / 2, y[drawn] + height / 2
    corners = np.stack([np.stack([x0, y0], 1), np.stack([x1, y0], 1), np.stack([x1, y1], 1),
                        np.stack([x0, y1], 1), np.stack([x0, y0], 1)], axis=1).reshape(-1, 2)
    codes = np.tile([MplPath.MOVETO, MplPath.LINETO, MplPath.LINETO, MplPath.LINETO,
                     MplPath.CLOSEPOLY], int(drawn.sum()))
    ax.add_patch(PathPatch(MplPath(corners, codes), facecolor=colour, linewidth=0))


def new_figure(width: float, height: float) -> Figure:
    with mpl.rc_context(STYLE):
        return Figure(figsize=(width, height), layout="constrained")


def why_here(rows: pd.DataFrame, signals: list[str], top_count: int, key: str,
             labels: list[str] | None = None) -> Plot:
    """Each paper's composite split into its weighted terms: positive terms stack to the right
    of zero, negative ones to the left, and a dot marks the composite."""
    with mpl.rc_context(STYLE):
        fig = new_figure(6.6, 0.9 + 0.19 * len(rows))
        ax = fig.add_subplot()
        y = np.arange(len(rows))
        right = np.zeros(len(rows))
        left = np.zeros(len(rows))
        handles: list[Artist] = []
        for position, signal in enumerate(signals):
            terms = rows[f"{signal}_term"].fillna(0.0).to_numpy(dtype=float)
            positive = np.clip(terms, 0, None)
            negative = np.clip(terms, None, 0)
            colour = signal_colour(signal, position)
            for part, start in ((positive, right), (negative, left)):
                bars(ax, y, part, start, colour, height=0.72)
            right += positive
            left += negative
            handles.append(Patch(color=colour, label=signal_label(signal)))
        composite = rows["local_top_overall"].to_numpy(dtype=float)
        ax.scatter(composite, y, s=14, color="black", zorder=3, label="composite")
        handles.append(mpl.lines.Line2D([], [], marker="o", color="black", linestyle="",
                                        markersize=4, label="composite"))
        ax.axvline(0, color="#444444", linewidth=0.8)
        if 0 < top_count < len(rows):
            ax.axhline(top_count - 0.5, color="#D55E00", linewidth=1, linestyle="--")
            ax.annotate(f"top-{top_count} cut", xy=(1, top_count - 0.5),
                        xycoords=("axes fraction", "data"), xytext=(0, 3),
                        textcoords="offset points", ha="right", va="bottom", color="#D55E00")
        ax.set_yticks(y, labels or [f"#{int(r)}" for r in rows["category_rank"]])
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.set_xlabel("weighted term (z-score x weight); they add up to the composite")
        ax.tick_params(axis="y", length=0, labelsize=7.5)
        ax.grid(axis="x", color="#EEEEEE", linewidth=0.6)
        ax.set_axisbelow(True)
        fig.legend(handles=handles, loc="outside upper center", ncols=min(len(handles), 7),
                   fontsize=8, handlelength=1.2, columnspacing=1.0)
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
    return render(fig, key, alt,
                  "Why here: each paper's composite split into its weighted terms.")


def distribution(scores: pd.Series, is_top: pd.Series, top_count: int, key: str) -> Plot:
    """Histogram of the category's composites, the top-N stacked in their own colour, with the
    cut (the lowest composite in the top-N) marked."""
    values = scores.to_numpy(dtype=float)
    top = is_top.to_numpy(dtype=bool)
    bins = np.histogram_bin_edges(values, bins=min(40, max(10, len(values) // 8)))
    with mpl.rc_context(STYLE):
        fig = new_figure(6.6, 2.3)
        ax = fig.add_subplot()
        ax.hist([values[top], values[~top]], bins=bins, stacked=True,  # type: ignore[arg-type]
                color=[TOP_COLOUR, REST_COLOUR], label=[f"top {top_count}", "below the cut"])
        cut = float(values[top].min()) if top.any() else None
        if cut is not None:
            ax.axvline(cut, color="#D55E00", linewidth=1, linestyle="--")
            ax.annotate(f"cut {cut:.3f}", xy=(cut, 1), xycoords=("data", "axes fraction"),
                        xytext=(3, -2), textcoords="offset points", va="top", color="#D55E00")
        ax.set_xlabel("composite (local_top_overall)")
        ax.set_ylabel("papers")
        ax.legend(loc="upper left", fontsize=8)
    alt = (f"Histogram of the composite of all {len(values)} ranked papers, from "
           f"{values.min():.3f} to {values.max():.3f}; the top {top_count} are highlighted"
           + (f" and the cut is at {cut:.3f}." if cut is not None else "."))
    return render(fig, key, alt,
                  "Score distribution: every ranked paper of the category, the shortlist highlighted.")


def caterpillar(rows: pd.DataFrame, top_n: int, key: str) -> Plot:
    """Rank intervals (5th-95th percentile, dot at the median) of the papers around the cut,
    in the order of their rank, coloured by band.  The rank axis stops a little past the
    window's own ranks so the cut stays readable; an interval that runs further ends in an
    arrow at the axis' end."""
    with mpl.rc_context(STYLE):
        fig = new_figure(6.6, 3.0)
        ax = fig.add_subplot()
        x = np.arange(len(rows))
        colours = [BAND_COLOURS.get(band, "#000000") for band in rows["rank_band"]]
        low = rows["rank_p05"].to_numpy(dtype=float)
        high = rows["rank_p95"].to_numpy(dtype=float)
        ranks = rows["category_rank"].to_numpy(dtype=float)
        limit = max(float(ranks.max()) if len(ranks) else 1.0, top_n) * 1.5 + 2
        clipped = high > limit
        ax.vlines(x, low, np.minimum(high, limit), colors=colours, linewidth=2.2)
        if clipped.any():
            ax.scatter(x[clipped], np.full(clipped.sum(), limit), marker="v", s=22,
                       color=[c for c, k in zip(colours, clipped, strict=True) if k], zorder=3)
        ax.scatter(x, rows["rank_p50"].to_numpy(dtype=float), s=12, color="black", zorder=4)
        ax.axhline(top_n + 0.5, color="#D55E00", linewidth=1, linestyle="--")
        ax.annotate(f"top-{top_n} cut", xy=(1, top_n + 0.5), xycoords=("axes fraction", "data"),
                    xytext=(0, 3), textcoords="offset points", ha="right", color="#D55E00")
        ax.set_xticks(x, [str(int(r)) for r in rows["category_rank"]], fontsize=7)
        ax.set_xlabel("papers in rank order (rank in the published list)")
        ax.set_ylabel("rank (90% interval)")
        ax.set_ylim(limit + 1, 0)
        ax.grid(axis="y", color="#EEEEEE", linewidth=0.6)
        ax.set_axisbelow(True)
        seen = [b for b in dict.fromkeys(rows["rank_band"]) if b is not None]
        handles: list[Artist] = [Patch(color=BAND_COLOURS.get(b, "#000000"), label=f"{b} (band)")
                                 for b in seen]
        handles.append(mpl.lines.Line2D([], [], color="#555555", linewidth=2.2,
                                        label="5th\u201395th percentile of rank"))
        handles.append(mpl.lines.Line2D([], [], marker="o", color="black", linestyle="",
                                        markersize=4, label="median rank"))
        handles.append(mpl.lines.Line2D([], [], color="#D55E00", linestyle="--", linewidth=1,
                                        label="the cut"))
        if clipped.any():
            handles.append(mpl.lines.Line2D([], [], marker="v", color="#555555", linestyle="",
                                            markersize=5, label=f"runs past rank {limit:.0f}"))
        fig.legend(handles=handles, loc="outside upper center", fontsize=7.5,
                   ncols=min(len(handles), 4), handlelength=1.4, columnspacing=1.0)
    counts = rows["rank_band"].value_counts()
    alt = (f"Rank intervals of the papers ranked {int(rows['category_rank'].min())} to "
           f"{int(rows['category_rank'].max())}, around the top-{top_n} cut: "
           + ", ".join(f"{int(n)} {band}" for band, n in counts.items())
           + (f"; {int(clipped.sum())} intervals run past rank {limit:.0f}, the axis' end"
              if clipped.any() else "")
           + ". The table lists each interval.")
    return render(fig, key, alt,
                  "How sure the place is: each paper's rank interval around the cut.")


def heatmap(table: pd.DataFrame, key: str) -> Plot:
    """Counts of papers per primary area (rows) and category (columns), annotated."""
    counts = table.to_numpy(dtype=float)
    with mpl.rc_context(STYLE):
        longest = max((len(str(i)) for i in table.index), default=10)
        fig = new_figure(0.6 + 0.062 * longest + 0.62 * table.shape[1], 1.6 + 0.25 * table.shape[0])
        ax = fig.add_subplot()
        shown = np.log1p(counts)
        ax.imshow(shown, cmap="Blues", aspect="auto")
        ax.set_xticks(np.arange(table.shape[1]), [str(c) for c in table.columns],
                      rotation=35, ha="left", rotation_mode="anchor")
        ax.xaxis.tick_top()
        ax.set_yticks(np.arange(table.shape[0]), [str(i) for i in table.index])
        ax.tick_params(length=0)
        ax.spines[:].set_visible(False)
        threshold = shown.max() * 0.6 if shown.size else 0
        for (i, j), value in np.ndenumerate(counts):
            if value:
                ax.text(j, i, f"{int(value)}", ha="center", va="center", fontsize=7,
                        color="white" if shown[i, j] > threshold else "black")
    alt = (f"Heatmap of accepted papers by primary area ({table.shape[0]} rows) and category "
           f"({table.shape[1]} columns). The table below it gives the same counts.")
    return render(fig, key, alt,
                  "Category against primary area: accepted papers, ranked or not.")


def confidence(table: pd.DataFrame, key: str) -> Plot:
    """Share of each label confidence per category, as 100% stacked bars."""
    shares = table.div(table.sum(axis=1).where(lambda s: s > 0), axis=0).fillna(0.0)
    with mpl.rc_context(STYLE):
        fig = new_figure(6.6, 0.9 + 0.3 * len(table))
        ax = fig.add_subplot()
        y = np.arange(len(table))
        left = np.zeros(len(table))
        for level in table.columns:
            values = shares[level].to_numpy(dtype=float)
            ax.barh(y, values, left=left, color=CONFIDENCE_COLOURS.get(level, "#999999"),
                    label=str(level), height=0.7)
            left += values
        ax.set_yticks(y, [str(c) for c in table.index])
        ax.set_ylim(len(table) - 0.5, -0.5)
        ax.set_xlim(0, 1)
        ax.xaxis.set_major_formatter(mpl.ticker.PercentFormatter(1.0))
        fig.legend(loc="outside upper center", ncols=len(table.columns), fontsize=8)
    alt = ("Share of high, medium and low label confidence among the ranked papers of each "
           "category. The table beside it gives the counts.")
    return render(fig, key, alt,
                  "Share of each label confidence among the ranked papers.")
