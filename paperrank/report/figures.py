"""The report's plots: matplotlib figures rendered to SVG and inlined as data URIs.

Each plot is an <img> whose source is the SVG itself, so the page needs nothing beside it, the
plots' internal ids cannot clash with each other or the page, and `alt` carries the text
alternative.  Rendering is deterministic: a fixed hash salt per figure, no date or creator in
the metadata, text kept as text (svg.fonttype none), and no math parsing of labels.
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass
from typing import Any

import matplotlib as mpl
import matplotlib.lines
import matplotlib.ticker
import numpy as np
import pandas as pd
from matplotlib.artist import Artist
from matplotlib.figure import Figure
from matplotlib.patches import Patch

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
}


@dataclass(frozen=True)
class Plot:
    """An SVG plot ready for an <img>: its data URI, its text alternative and its caption."""

    src: str
    alt: str
    caption: str


def signal_label(signal: str) -> str:
    """A reader's name for a signal column: contribution_mean -> contribution."""
    if signal == "rating_std":
        return "rating spread"
    return signal.removesuffix("_mean").replace("_", " ")


def signal_colour(signal: str, position: int) -> str:
    return SIGNAL_COLOURS.get(signal, FALLBACK_COLOURS[position % len(FALLBACK_COLOURS)])


def render(fig: Figure, key: str, alt: str, caption: str) -> Plot:
    """SVG of `fig` as a data URI; `key` salts the SVG's ids so the output is repeatable."""
    buffer = io.StringIO()
    with mpl.rc_context({**STYLE, "svg.hashsalt": f"paperrank-report-{key}"}):
        fig.savefig(buffer, format="svg", bbox_inches="tight",
                    metadata={"Date": None, "Creator": None})
    encoded = base64.b64encode(buffer.getvalue().encode("utf-8")).decode("ascii")
    return Plot(src=f"data:image/svg+xml;base64,{encoded}", alt=alt, caption=caption)


def new_figure(width: float, height: float) -> Figure:
    with mpl.rc_context(STYLE):
        return Figure(figsize=(width, height), layout="constrained")


def why_here(rows: pd.DataFrame, signals: list[str], top_count: int, key: str) -> Plot:
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
                drawn = part != 0  # zero-width bars add nothing but bytes
                ax.barh(y[drawn], part[drawn], left=start[drawn], color=colour, height=0.72,
                        linewidth=0)
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
        ax.set_yticks(y, [f"#{int(r)}" for r in rows["category_rank"]])
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
    # one paper, or papers with identical scores: every z-score is 0 (or undefined), so the
    # composite has no term to split; draw the composites and say why (issue 22 point 11)
    largest = (f"The largest term of the first three papers: {', '.join(strongest)}. "
               if strongest else "No weighted term differs from zero: with one paper, or papers "
               "whose scores are identical, every z-score is 0, so only the composite is drawn. ")
    alt = (f"Stacked bars of the weighted terms of the composite for ranks "
           f"{int(rows['category_rank'].min())} to {int(rows['category_rank'].max())}. "
           f"{largest}The table above lists each paper's signals and composite.")
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
    in the order of their rank, coloured by band."""
    with mpl.rc_context(STYLE):
        fig = new_figure(6.6, 2.8)
        ax = fig.add_subplot()
        x = np.arange(len(rows))
        colours = [BAND_COLOURS.get(band, "#000000") for band in rows["rank_band"]]
        low = rows["rank_p05"].to_numpy(dtype=float)
        high = rows["rank_p95"].to_numpy(dtype=float)
        ax.vlines(x, low, high, colors=colours, linewidth=2.2)
        ax.scatter(x, rows["rank_p50"].to_numpy(dtype=float), s=12, color="black", zorder=3)
        ax.axhline(top_n + 0.5, color="#D55E00", linewidth=1, linestyle="--")
        ax.annotate(f"top-{top_n} cut", xy=(1, top_n + 0.5), xycoords=("axes fraction", "data"),
                    xytext=(0, 3), textcoords="offset points", ha="right", color="#D55E00")
        ax.set_xticks(x, [str(int(r)) for r in rows["category_rank"]], fontsize=7)
        ax.set_xlabel("papers in rank order (rank in the published list)")
        ax.set_ylabel("rank (90% interval)")
        ax.invert_yaxis()
        ax.grid(axis="y", color="#EEEEEE", linewidth=0.6)
        ax.set_axisbelow(True)
        seen = list(dict.fromkeys(rows["rank_band"]))
        fig.legend(handles=[Patch(color=BAND_COLOURS.get(b, "#000000"), label=str(b)) for b in seen],
                   loc="outside upper right", fontsize=8, ncols=len(seen))
    counts = rows["rank_band"].value_counts()
    alt = (f"Rank intervals of the papers ranked {int(rows['category_rank'].min())} to "
           f"{int(rows['category_rank'].max())}, around the top-{top_n} cut: "
           + ", ".join(f"{int(n)} {band}" for band, n in counts.items())
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
