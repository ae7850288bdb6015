"""What the numbers say, in words: each category's header, the labels and tooltips of the
marts' columns, and the one line on what a build without some parts does not show.

An expert reads the header to know how far to trust a category's order; the marts' column
names (`reliability_with_one_more_review`, ...) stay in a details list, each with a plain label
and its definition as a tooltip.  Every sentence is built from the marts' values; nothing here
computes a statistic.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from paperrank.report.marts import BuildParts, VenueMarts

# column -> (plain label, what it means): the header's details and the rows' panels
FACTS: dict[str, tuple[str, str]] = {
    "category_size": ("Ranked papers", "Papers ranked in this category."),
    "top_n_papers": ("Shortlist size", "Papers in the point top N: the smaller of top_n and the "
                     "category's size."),
    "expected_top_n_overlap": (
        "Kept after a redraw", "Expected overlap of the published top N with the top N of a "
        "redraw of the reviews: the sum of P(top N) over the published top N."),
    "expected_top_n_overlap_share": ("Share kept after a redraw",
                                     "The expected overlap divided by the shortlist size."),
    "expected_redraw_overlap": (
        "Shared by two redraws", "Expected overlap of the top N of two independent redraws: "
        "the sum of P(top N) squared over the category."),
    "secure_papers": ("Secure", "Papers whose P(top N) is at least the secure threshold "
                      "(rank_band_secure, 0.9 by default): in the top N in nearly every redraw."),
    "borderline_papers": ("Borderline", "Papers between the outside and the secure thresholds."),
    "fragile_top_n_papers": ("Fragile in the top N", "Papers of the published top N whose "
                             "P(top N) is below 0.5: more likely out than in after a redraw."),
    "p_top_n_sum": ("Sum of P(top N)", "A check: it equals the shortlist size."),
    "uncertainty_method": ("Method", "bootstrap (reviews redrawn) or normal (closed form)."),
    "replicates": ("Redraws", "Bootstrap redraws behind P(top N); none for the normal method."),
    "possibly_top_n_papers": (
        "Possibly in the top N", "Size of the rank confidence set that holds every paper truly "
        "in the top N, at the build's coverage."),
    "certainly_top_n_papers": (
        "Certainly in the top N", "Papers whose simultaneous upper rank bound is within the top "
        "N: jointly, at the build's coverage, truly in the top N."),
    "reliability": (
        "Reliability", "Share of the composites' variance that lies between papers rather than "
        "between reviewers: 1 - mean se^2 / variance. 0: the reviews cannot order the papers; "
        "1: they order them exactly."),
    "reliability_with_one_more_review": (
        "Reliability with one more review", "The reliability if every paper had one more review "
        "(Spearman-Brown)."),
    "leave_one_out_min_kendall_tau": (
        "Order kept without a signal (lowest)", "Lowest Kendall's tau between the published "
        "ranking and a ranking that leaves one signal out."),
    "leave_one_out_min_top_n_overlap": (
        "Top N kept without a signal (lowest)", "Smallest overlap of the published top N with "
        "the top N when one signal is left out."),
    "weight_draws_mean_kendall_tau": (
        "Order kept under other weights", "Mean Kendall's tau between the published ranking and "
        "rankings under weights drawn around the weight set."),
    "weight_draws_mean_top_n_overlap": (
        "Top N kept under other weights", "Mean overlap of the published top N with the top N "
        "under weights drawn around the weight set."),
    "rank_set_method": ("Rank-set method", "exact, or the scaled path for a large category."),
}


@dataclass(frozen=True)
class Fact:
    """One number of a category, as the details list shows it."""

    column: str
    label: str
    tooltip: str
    value: Any


def facts(stability: list[tuple[str, Any]]) -> list[Fact]:
    """The category's numbers with their plain labels and definitions (a column this page does
    not know keeps its name as its label)."""
    return [Fact(column, *FACTS.get(column, (column.replace("_", " "), column)), value)
            for column, value in stability]


def _papers(n: int) -> str:
    return f"{n:,} paper" + ("" if n == 1 else "s")


def _reliability(value: float) -> str:
    if value < 0.2:
        return ("the reviews barely separate the papers of this category: almost all the spread "
                "between their composites is the reviewers' disagreement, so read the top {n} as "
                "a pool to choose from, not as an order")
    if value < 0.5:
        return ("the reviews separate the papers only partly: papers a few dozen places apart "
                "may be equally good")
    if value < 0.8:
        return ("the reviews separate the papers fairly well, though neighbours a few places "
                "apart are interchangeable")
    return "the reviews separate the papers well"


class SectionNumbers(Protocol):
    """What a category's header is written from (paperrank.report.sections.CategorySection)."""

    size: int
    top_count: int
    cut: float | None
    possibly_top_n: int | None
    certainly_top_n: int | None


def category_words(section: SectionNumbers, facts: dict[str, Any], data: VenueMarts) -> list[str]:
    """The category's header as sentences: its size and shortlist, how stable its top N is,
    what its reliability means, and its rank sets with what their guarantee covers."""
    n = section.top_count
    lines = [f"{_papers(section.size)} ranked; the shortlist is the top {n}"
             + (f" (its last paper's composite is {section.cut:.3f})." if section.cut is not None
                else ".")]
    overlap, secure = facts.get("expected_top_n_overlap"), facts.get("secure_papers")
    if overlap is not None:
        threshold = data.setting("rank_band_secure")
        share = f"{float(threshold):.0%}" if threshold is not None else "90%"
        sentence = (f"How stable the top {n} is: if the reviews were drawn again, about "
                    f"{float(overlap):.0f} of these {n} would still be in the top {n}")
        if secure is not None:
            sentence += (f"; {_papers(int(secure))} "
                         f"{'is' if int(secure) == 1 else 'are'} in it in at least {share} "
                         "of redraws")
        lines.append(sentence + ".")
    reliability = facts.get("reliability")
    if reliability is not None:
        sentence = (f"Reliability {float(reliability):.2f}: "
                    + _reliability(float(reliability)).format(n=n))
        more = facts.get("reliability_with_one_more_review")
        if more is not None:
            sentence += f"; one more review per paper would make it {float(more):.2f}"
        lines.append(sentence + ".")
    if section.possibly_top_n is not None and section.certainly_top_n is not None:
        coverage = coverage_text(data.setting("rank_sets_coverage"))
        lines.append(
            f"Rank sets ({coverage}): {_papers(section.certainly_top_n)} certainly in the top "
            f"{n}, {_papers(section.possibly_top_n)} possibly. With {coverage} confidence every "
            f"paper truly in the top {n} is among the possible ones and every certain one truly "
            "is in it, \"truly\" meaning by the composite the reviews estimate: a bias all "
            "reviewers share is not covered.")
    return lines


def coverage_text(coverage: Any) -> str:
    """The rank sets' coverage as the page states it: 0.95 -> "95%"; a build that did not record
    it is not given a number it may not have used."""
    if coverage is None:
        return "coverage not recorded"
    return f"{round(float(coverage) * 100, 2):g}%"


def parts_message(parts: BuildParts) -> str | None:
    """The one line that says which parts this build lacks and what the reader therefore does
    not see; None for a build with every part."""
    lacking = parts.lacking
    if not lacking:
        return None
    built = "" if parts.recorded is None else (
        f" (built with EXTRAS={parts.recorded or 'none'})")
    what = "; ".join(p.lacking for p in lacking)
    if not parts.built:
        return f"This build has the ranking alone: {what}{built}."
    names = [p.name.replace("_", " ") for p in lacking]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"This build lacks {listed}: {what}{built}."


@dataclass(frozen=True)
class Term:
    """One number of a paper's details panel: the key its <dt> carries, its label, the mart
    columns it shows and what it means (the page's script makes it the label's tooltip)."""

    key: str
    label: str
    columns: str
    meaning: str


def row_terms(signals: list[str], top_n: Any, coverage: str, uncertainty: bool,
              rank_sets: bool) -> list[Term]:
    """The glossary of the rows' details panels, for the numbers this build has."""
    from paperrank.report.figures import signal_label

    n = top_n if top_n is not None else "N"
    terms = [Term("review_count", "Reviews", "review_count", "Reviews behind the paper's means.")]
    terms += [Term(s, signal_label(s).capitalize(), s,
                   "The standard deviation of the reviewers' ratings." if s == "rating_std"
                   else f"The reviewers' mean {signal_label(s)} score.") for s in signals]
    terms.append(Term("local_top_overall", "Composite", "local_top_overall",
                      "The weighted sum of the signals' z-scores within the category: the score "
                      "the ranking sorts by."))
    if uncertainty:
        terms += [
            Term("rank_interval", "Rank, 90% of redraws", "rank_p05, rank_p95",
                 "The 5th to the 95th percentile of the paper's rank when the reviews are "
                 "drawn again."),
            Term("p_top_n", f"P(top {n})", "p_top_n, p_top_n_se",
                 f"The share of redraws of the reviews in which the paper ranks in the top {n}, "
                 "± its Monte Carlo standard error (none for the closed form)."),
            Term("rank_band", "Band", "rank_band",
                 "secure: P(top N) at least the secure threshold (0.9 by default); outside: at "
                 "most the outside one (0.1); else borderline."),
        ]
    if rank_sets:
        terms.append(Term("rank_set", f"Rank set {coverage}",
                          "marginal_lower, marginal_upper, is_possibly_top_n, is_certainly_top_n",
                          f"The ranks the paper can hold at {coverage} confidence; possibly / "
                          f"certainly: in the sets that hold the true top {n}."))
    return terms
