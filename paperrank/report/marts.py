"""Read one venue's marts for the report, read-only.

The report shows what dbt built and never recomputes a ranking: every number comes from a
mart as it is.  The marts the ranking always has are required; the ones other parts of the
project add (build settings, rank uncertainty, label agreement) are shown when present.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb
import pandas as pd

from paperrank.core.errors import CheckFailed

REQUIRED = ("paper_rankings", "category_summary", "excluded_papers", "expert_picks")
RANKING_COLUMNS = (
    "venue", "paper_id", "title", "category", "category_rank", "category_size", "is_top_n",
    "local_top_overall", "review_count", "forum_url", "label_confidence", "label_model",
    "label_prompt_hash", "category_source", "primary_area",
)
UNCERTAINTY_COLUMNS = (
    "venue", "category", "paper_id", "rank_p05", "rank_p50", "rank_p95", "p_top_n",
    "p_top_n_se", "rank_band", "uncertainty_method",
)


class MartsError(CheckFailed):
    """The warehouse lacks what the report needs; the message says what and how to get it."""


@dataclass
class VenueMarts:
    """Everything the report shows about one venue, straight from the marts."""

    venue: str
    rankings: pd.DataFrame
    summary: pd.DataFrame
    excluded: pd.DataFrame
    picks: pd.DataFrame
    signals: list[str]
    snapshot_at: pd.Series | None = None
    build_settings: pd.DataFrame | None = None
    uncertainty: pd.DataFrame | None = None
    stability: pd.DataFrame | None = None
    agreement: pd.DataFrame | None = None


def connect(db: Path) -> duckdb.DuckDBPyConnection:
    """Open the warehouse read-only (a published warehouse is never written by readers)."""
    if not db.exists():
        raise MartsError(
            f"no warehouse at {db}: pass --db PATH (make report REPORT_DB=PATH) or set "
            "PAPERRANK_PUBLISHED_DB to a warehouse built by `make rank`")
    try:
        return duckdb.connect(str(db), read_only=True)
    except duckdb.Error as error:  # e.g. a writer (dbt, a loader) holds the file
        raise MartsError(f"cannot open {db} read-only: {error}") from None


def mart_columns(con: duckdb.DuckDBPyConnection) -> dict[str, list[str]]:
    """Columns of every table or view in the marts schema, in table order."""
    rows = con.execute(
        "select table_name, column_name from information_schema.columns "
        "where table_schema = 'marts' order by table_name, ordinal_position").fetchall()
    found: dict[str, list[str]] = {}
    for table, column in rows:
        found.setdefault(table, []).append(column)
    return found


def check_marts(columns: dict[str, list[str]]) -> None:
    missing = [name for name in REQUIRED if name not in columns]
    if missing:
        raise MartsError(
            f"the warehouse has no marts.{', marts.'.join(missing)}: run `dbt build` "
            "(make rank) on it first")
    absent = [c for c in RANKING_COLUMNS if c not in columns["paper_rankings"]]
    if absent:
        raise MartsError(f"marts.paper_rankings lacks columns {', '.join(absent)}")
    if "paper_rank_uncertainty" in columns:
        absent = [c for c in UNCERTAINTY_COLUMNS if c not in columns["paper_rank_uncertainty"]]
        if absent:
            raise MartsError(f"marts.paper_rank_uncertainty lacks columns {', '.join(absent)}")


def signals_of(columns: list[str]) -> list[str]:
    """The signals the composite is built from: one `<signal>_term` column each."""
    return [c.removesuffix("_term") for c in columns if c.endswith("_term")]


def venues(con: duckdb.DuckDBPyConnection) -> list[str]:
    return [v for (v,) in con.execute(
        "select distinct venue from marts.paper_rankings order by venue").fetchall()]


def _frame(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> pd.DataFrame:
    return con.execute(sql, params or []).df()


def load_venue(con: duckdb.DuckDBPyConnection, venue: str) -> VenueMarts:
    """One venue's rows of every mart the report reads."""
    columns = mart_columns(con)
    check_marts(columns)
    ranking_columns = columns["paper_rankings"]
    signals = signals_of(ranking_columns)
    rankings = _frame(con, "select * from marts.paper_rankings where venue = ? "
                           "order by category, category_rank", [venue])
    if rankings.empty:
        raise MartsError(f"venue {venue!r} has no ranked papers; ranked venues: "
                         f"{', '.join(venues(con)) or 'none'}")
    if "label_rationale" not in rankings.columns:
        rankings["label_rationale"] = None
    data = VenueMarts(
        venue=venue,
        rankings=rankings,
        summary=_frame(con, "select * from marts.category_summary where venue = ? "
                            "order by category", [venue]),
        excluded=_frame(con, "select * from marts.excluded_papers where venue = ? "
                             "order by exclusion_reason, paper_id", [venue]),
        picks=_venue_picks(con, venue),
        signals=signals,
    )
    if "paper_score_history" in columns:
        data.snapshot_at = con.execute(
            "select min(h.snapshot_at), max(h.snapshot_at) from marts.paper_score_history h "
            "inner join marts.paper_rankings r on h.paper_id = r.paper_id "
            "where r.venue = ? and h.is_latest_snapshot", [venue]).df().iloc[0]
    if "build_settings" in columns:
        where = " where venue = ? or venue is null" if "venue" in columns["build_settings"] else ""
        order = " order by built_at desc" if "built_at" in columns["build_settings"] else ""
        settings = _frame(con, f"select * from marts.build_settings{where}{order} limit 1",
                          [venue] if where else [])
        data.build_settings = settings if not settings.empty else None
    if "paper_rank_uncertainty" in columns:
        data.uncertainty = _frame(
            con, "select * from marts.paper_rank_uncertainty where venue = ?", [venue])
    if "category_rank_stability" in columns:
        data.stability = _frame(
            con, "select * from marts.category_rank_stability where venue = ? order by category",
            [venue])
    if "label_agreement" in columns:
        data.agreement = _frame(
            con, "select * from marts.label_agreement where venue = ? "
                 "order by other_label_model, paper_id", [venue])
    return data


def _venue_picks(con: duckdb.DuckDBPyConnection, venue: str) -> pd.DataFrame:
    """Picks of this venue's papers, and picks of papers the warehouse does not know at all
    (expert_picks has no venue; an unknown paper is shown, flagged, in every venue's report)."""
    return _frame(con, """
        select picks.*
        from marts.expert_picks as picks
        left join (
            select paper_id, venue from marts.paper_rankings
            union all
            select paper_id, venue from marts.excluded_papers
        ) as known
            on picks.paper_id = known.paper_id
        where known.venue = ? or known.paper_id is null
        order by picks.selected_category, picks.category_rank nulls last, picks.paper_id
    """, [venue])
