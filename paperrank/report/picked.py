"""The recorded picks on the page, in aggregate: how many experts picked each paper, never who.

The page is sent to every expert of a venue. Listing every pick of every expert (name and note)
made it grow with the picks: 100,000 picks gave a 54 MB page and a 12 s report. What an expert
needs from the others' picks is how many of them picked a paper for a category (and whether the
pick is flagged); their own picks the page keeps in their browser (localStorage) and lists
itself. So the page carries one row per (category picked for, paper): at most one per ranked
paper and category, however many experts pick, and the per-band table counts picks per category.
Both are computed from the mart's frame with pandas' group-by, not row by row.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from paperrank.report.content import BANDS, paper_bands, present, title_text
from paperrank.report.marts import VenueMarts


def picked_papers(data: VenueMarts) -> list[dict[str, Any]]:
    """One row per (category picked for, paper): the paper, where it ranks, its band, the flag
    of its picks and how many experts picked it; the most picked first within a category."""
    if data.picks is None or data.picks.empty:
        return []
    frame = _with_band(data)
    keys = ["selected_category", "paper_id"]
    experts = frame.groupby(keys, dropna=False, sort=False)["selected_by"].nunique().rename("experts")
    first = frame.drop_duplicates(keys).set_index(keys)
    rows = first.join(experts).reset_index()
    rows = rows.sort_values(["selected_category", "experts", "category_rank", "paper_id"],
                            ascending=[True, False, True, True], na_position="last")
    return [{
        "selected_category": present(r.selected_category),
        "paper_id": r.paper_id,
        "title": title_text(present(r.title)) if present(r.title) is not None else "(not in the warehouse)",
        "paper_category": present(r.paper_category),
        "rank": present(r.category_rank),
        "size": present(r.category_size),
        "band": present(r.band),
        "flag": present(r.flag_reason),
        "experts": int(r.experts),
    } for r in rows.itertuples(index=False)]


def picks_by_band(data: VenueMarts) -> list[dict[str, Any]]:
    """Per category picked for: how many picks came from secure, borderline and outside papers
    (and from papers with no band: not ranked, or no uncertainty mart)."""
    if data.picks is None or data.picks.empty:
        return []
    frame = _with_band(data)
    band = frame["band"].where(frame["band"].isin(BANDS), "none")
    category = frame["selected_category"].fillna("(none)").astype(str)
    counts = pd.crosstab(category, band)
    columns = [*BANDS, "none"]
    counts = counts.reindex(columns=columns, fill_value=0)
    return [{"category": name, "counts": [int(n) for n in counts.loc[name, columns]],
             "total": int(counts.loc[name].sum())} for name in sorted(counts.index)]


def _with_band(data: VenueMarts) -> pd.DataFrame:
    """The picks with each paper's band: the mart's own, else the uncertainty mart's."""
    assert data.picks is not None
    frame = data.picks.copy()
    bands = paper_bands(data)
    from_mart = frame["rank_band"] if "rank_band" in frame else pd.Series(None, index=frame.index)
    frame["band"] = from_mart.where(from_mart.notna(), frame["paper_id"].astype(str).map(bands))
    frame["band"] = frame["band"].astype(object).where(frame["band"].notna(), None)
    return frame
