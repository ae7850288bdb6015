"""Do two rankings agree? Same papers, each in the same category at the same rank, and the
same composite to 1e-9.

Ranks are compared exactly, with one allowance that is reported separately: the method ranks
by round(composite, 12), and two engines (or two runs of one engine with parallel sums) can
put the same composite a few 1e-16 apart on either side of a 12th-digit rounding boundary.
A paper whose rank differs only by such a near-tie (it lands on a rank whose paper has the
same composite within 1e-9) is counted in `near_tie_swaps`, not as a difference.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pandas as pd

KEY = ["paper_id", "category", "category_rank", "local_top_overall"]
TOLERANCE = 1e-9


def read_table(db: Path, table: str) -> pd.DataFrame:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(f"select {', '.join(KEY)} from {table}").df()
    finally:
        con.close()


def read_parquet(path: Path) -> pd.DataFrame:
    return pd.read_parquet(path, columns=KEY)


def near_tie_swaps(expected: pd.DataFrame, actual: pd.DataFrame) -> int:
    """Papers ranked differently only among composites equal within TOLERANCE."""
    return len(_rank_moves(expected, actual)[1])


def _rank_moves(expected: pd.DataFrame, actual: pd.DataFrame
                ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(real rank differences, near-tie swaps) of papers ranked in the same category."""
    both = expected.merge(actual, on=["paper_id", "category"], suffixes=("_e", "_a"))
    moved = both[both["category_rank_e"].astype("int64") != both["category_rank_a"].astype("int64")]
    if moved.empty:
        return moved, moved
    # the composite (expected) of the paper that holds the moved paper's new rank there
    holder = expected[["category", "category_rank", "local_top_overall"]].rename(
        columns={"category_rank": "category_rank_a", "local_top_overall": "holder_score"})
    holder["category_rank_a"] = holder["category_rank_a"].astype("int64")
    moved = moved.assign(category_rank_a=moved["category_rank_a"].astype("int64"))
    moved = moved.merge(holder, on=["category", "category_rank_a"], how="left")
    tie = (moved["holder_score"] - moved["local_top_overall_e"]).abs() < TOLERANCE
    return moved[~tie], moved[tie]


def differences(expected: pd.DataFrame, actual: pd.DataFrame) -> list[str]:
    """Human-readable differences between two rankings; empty when they agree."""
    problems: list[str] = []
    for name, frame in (("expected", expected), ("actual", actual)):
        if frame["paper_id"].duplicated().any():
            problems.append(f"{name} ranks a paper twice")
    merged = expected.merge(actual, on="paper_id", how="outer", suffixes=("_e", "_a"),
                            indicator=True)
    missing = merged[merged["_merge"] != "both"]
    if len(missing):
        problems.append(f"{len(missing)} papers ranked by only one side, e.g. "
                        f"{missing['paper_id'].head(3).tolist()}")
    both = merged[merged["_merge"] == "both"]
    category = both[both["category_e"] != both["category_a"]]
    if len(category):
        problems.append(f"{len(category)} papers in another category")
    rank, _ = _rank_moves(expected, actual)
    if len(rank):
        problems.append(f"{len(rank)} papers at another rank, e.g. "
                        f"{rank[['paper_id', 'category_rank_e', 'category_rank_a']].head(3)}")
    gap = (both["local_top_overall_e"] - both["local_top_overall_a"]).abs().max()
    if len(both) and gap > TOLERANCE:
        problems.append(f"composite differs by up to {gap:.3g}")
    return problems
