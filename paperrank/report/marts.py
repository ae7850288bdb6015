"""Read one venue's marts for the report, read-only.

The report shows what dbt built and never recomputes a ranking: every number comes from a
mart as it is.  A build is made of parts chosen at build time (`ranking` always, and the extras
`uncertainty`, `rank_sets`, `outcomes`, `picks`, `related`); the published warehouse holds only
the built parts' marts.  The ranking's marts are required; every other mart is read when it is
there and left out (None) when it is not, and the page says once which parts the build lacks.
Builds from before the split keep the rank sets inside paper_rank_uncertainty and
category_rank_stability: they are read from there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd

from paperrank.core.errors import CheckFailed
from paperrank.report import validity

REQUIRED = ("paper_rankings", "category_summary", "excluded_papers")
RANKING_COLUMNS = (
    "venue", "paper_id", "title", "category", "category_rank", "category_size", "is_top_n",
    "local_top_overall", "review_count", "forum_url", "label_confidence", "label_model",
    "label_prompt_hash", "category_source", "primary_area",
)
UNCERTAINTY_COLUMNS = (
    "venue", "category", "paper_id", "rank_p05", "rank_p50", "rank_p95", "p_top_n",
    "p_top_n_se", "rank_band", "uncertainty_method",
)
RANK_SET_COLUMNS = ("paper_id", "marginal_lower", "marginal_upper", "is_possibly_top_n",
                    "is_certainly_top_n")
CATEGORY_SET_COLUMNS = ("possibly_top_n_papers", "certainly_top_n_papers", "reliability",
                        "reliability_with_one_more_review")
RELATED_COLUMNS = ("venue", "paper_id", "related_rank", "related_paper_id", "similarity")
SUBTHEME_COLUMNS = ("venue", "category", "subtheme", "subtheme_label", "subtheme_terms",
                    "paper_count")
PAPER_SUBTHEME_COLUMNS = ("venue", "paper_id", "category", "subtheme", "subtheme_label")
MAP_COLUMNS = ("venue", "map_category", "paper_id", "x", "y", "category", "subtheme",
               "subtheme_label")
TRUST_COLUMNS = ("venue", "map_category", "trustworthiness")
AUDIT_COLUMNS = ("venue", "paper_id", "taxonomy", "label_category", "audit_category",
                 "audit_confidence", "is_disputed")


@dataclass(frozen=True)
class Part:
    """One optional part of a build: the mart that tells it was built, and what a reader of a
    build without it does not see (said once, at the top of the page)."""

    name: str
    marker: str
    lacking: str


PARTS = (
    Part("uncertainty", "paper_rank_uncertainty",
         "no rank uncertainty (P(top N), rank intervals, bands, how stable each top N is)"),
    Part("rank_sets", "paper_rank_sets",
         "no rank confidence sets (which papers are certainly or possibly in the top N)"),
    Part("outcomes", "ranking_validity",
         "no check of the ranking against outcomes (decisions, citations)"),
    Part("picks", "expert_picks",
         "no recorded expert picks (ticking and downloading picks still work)"),
    Part("related", "paper_related",
         "no related papers, sub-themes, maps or second-opinion labels"),
)
PART_NAMES = tuple(p.name for p in PARTS)


class MartsError(CheckFailed):
    """The warehouse lacks what the report needs; the message says what and how to get it."""


@dataclass
class BuildParts:
    """Which extras this build has: as build_settings.extras records them (`recorded`), or,
    for a build that does not record them, as its marts show."""

    built: tuple[str, ...]
    recorded: str | None = None  # build_settings.extras as written; None: not recorded

    @property
    def lacking(self) -> list[Part]:
        return [p for p in PARTS if p.name not in self.built]


@dataclass
class VenueMarts:
    """Everything the report shows about one venue, straight from the marts."""

    venue: str
    rankings: pd.DataFrame
    summary: pd.DataFrame
    excluded: pd.DataFrame
    signals: list[str]
    picks: pd.DataFrame | None = None
    parts: BuildParts = field(default_factory=lambda: BuildParts(PART_NAMES))
    snapshot_at: pd.Series | None = None
    build_settings: pd.DataFrame | None = None
    uncertainty: pd.DataFrame | None = None
    rank_sets: pd.DataFrame | None = None
    stability: pd.DataFrame | None = None
    category_sets: pd.DataFrame | None = None
    weight_sensitivity: pd.DataFrame | None = None
    agreement: pd.DataFrame | None = None
    score_history: pd.DataFrame | None = None
    loads: pd.DataFrame | None = None
    related: pd.DataFrame | None = None
    subthemes: pd.DataFrame | None = None
    paper_subthemes: pd.DataFrame | None = None
    label_audit: pd.DataFrame | None = None
    map_positions: pd.DataFrame | None = None  # marts.paper_map_positions (the related extra)
    map_trust: pd.DataFrame | None = None  # marts.map_trustworthiness
    validity: Any = None  # paperrank.report.validity.ValiditySection, when the outcome marts exist

    def setting(self, name: str) -> Any:
        """One recorded build setting (marts.build_settings), None when not recorded."""
        if self.build_settings is None or name not in self.build_settings.columns:
            return None
        value = self.build_settings.iloc[0][name]
        try:
            return None if pd.isna(value) else value
        except (TypeError, ValueError):  # a list or an array is a value
            return value


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


def _require_columns(columns: dict[str, list[str]], table: str, wanted: tuple[str, ...]) -> None:
    absent = [c for c in wanted if c not in columns[table]]
    if absent:
        raise MartsError(f"marts.{table} lacks columns {', '.join(absent)}")


def check_marts(columns: dict[str, list[str]]) -> None:
    """The ranking's marts are there, and every optional mart that is there has the columns the
    page reads (a mart of another shape is refused by name, not shown half)."""
    missing = [name for name in REQUIRED if name not in columns]
    if missing:
        raise MartsError(
            f"the warehouse has no marts.{', marts.'.join(missing)}: run `dbt build` "
            "(make rank) on it first")
    _require_columns(columns, "paper_rankings", RANKING_COLUMNS)
    for table, wanted in (("paper_rank_uncertainty", UNCERTAINTY_COLUMNS),
                          ("paper_rank_sets", RANK_SET_COLUMNS),
                          ("paper_related", RELATED_COLUMNS),
                          ("category_subthemes", SUBTHEME_COLUMNS),
                          ("paper_subthemes", PAPER_SUBTHEME_COLUMNS),
                          ("label_audit", AUDIT_COLUMNS),
                          ("paper_map_positions", MAP_COLUMNS),
                          ("map_trustworthiness", TRUST_COLUMNS)):
        if table in columns:
            _require_columns(columns, table, wanted)


def signals_of(columns: list[str]) -> list[str]:
    """The signals the composite is built from: one `<signal>_term` column each."""
    return [c.removesuffix("_term") for c in columns if c.endswith("_term")]


def venues(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The venues the warehouse ranks; MartsError naming what is missing when it has no
    ranking (an empty or unbuilt warehouse)."""
    check_marts(mart_columns(con))
    return [v for (v,) in con.execute(
        "select distinct venue from marts.paper_rankings order by venue").fetchall()]


def _frame(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> pd.DataFrame:
    return con.execute(sql, params or []).df()


def _venue_rows(con: duckdb.DuckDBPyConnection, columns: dict[str, list[str]], table: str,
                venue: str, order: str | None = None) -> pd.DataFrame | None:
    """The venue's rows of marts.<table>, or None when the build has no such mart."""
    if table not in columns:
        return None
    return _frame(con, f"select * from marts.{table} where venue = ?"
                       + (f" order by {order}" if order else ""), [venue])


def build_parts(columns: dict[str, list[str]], settings: pd.DataFrame | None) -> BuildParts:
    """The extras of this build: build_settings.extras when recorded (comma-separated; empty
    for the ranking alone), else the parts whose marker mart is there (a build from before
    the split, whose rank sets live in paper_rank_uncertainty, has them too)."""
    if settings is not None and "extras" in settings.columns:
        recorded = settings.iloc[0]["extras"]
        recorded = "" if recorded is None or pd.isna(recorded) else str(recorded)
        names = [n.strip() for n in recorded.split(",") if n.strip()]
        return BuildParts(tuple(p for p in PART_NAMES if p in names), recorded)
    found = [p.name for p in PARTS if p.marker in columns]
    if "rank_sets" not in found and "marginal_lower" in columns.get("paper_rank_uncertainty", []):
        found.append("rank_sets")
    return BuildParts(tuple(p for p in PART_NAMES if p in found))


def load_venue(con: duckdb.DuckDBPyConnection, venue: str) -> VenueMarts:
    """One venue's rows of every mart the report reads (None for a mart the build lacks)."""
    columns = mart_columns(con)
    check_marts(columns)
    signals = signals_of(columns["paper_rankings"])
    rankings = _frame(con, "select * from marts.paper_rankings where venue = ? "
                           "order by category, category_rank", [venue])
    if rankings.empty:
        raise MartsError(f"venue {venue!r} has no ranked papers; ranked venues: "
                         f"{', '.join(venues(con)) or 'none'}")
    for optional in ("label_rationale", "keywords", "authors", "abstract", "status", "pdf_url"):
        if optional not in rankings.columns:
            rankings[optional] = None
    data = VenueMarts(
        venue=venue,
        rankings=rankings,
        summary=_frame(con, "select * from marts.category_summary where venue = ? "
                            "order by category", [venue]),
        excluded=_frame(con, "select * from marts.excluded_papers where venue = ? "
                             "order by exclusion_reason, paper_id", [venue]),
        signals=signals,
    )
    data.build_settings = _settings(con, columns, venue)
    data.parts = build_parts(columns, data.build_settings)
    if "expert_picks" in columns:
        data.picks = _frame(con, "select * from marts.expert_picks where venue = ? order by "
                                 "selected_category, category_rank nulls last, paper_id", [venue])
    if "paper_score_history" in columns:
        data.snapshot_at = con.execute(
            "select min(h.snapshot_at), max(h.snapshot_at) from marts.paper_score_history h "
            "inner join marts.paper_rankings r on h.paper_id = r.paper_id "
            "where r.venue = ? and h.is_latest_snapshot", [venue]).df().iloc[0]
        data.score_history = _frame(con, """
            select h.paper_id, h.snapshot_at, h.rating_mean
            from marts.paper_score_history h
            where h.snapshot_count > 1
              and h.paper_id in (select paper_id from marts.paper_rankings where venue = ?)
            order by h.paper_id, h.snapshot_at""", [venue])
    data.loads = _loads(con)
    data.uncertainty = _venue_rows(con, columns, "paper_rank_uncertainty", venue)
    data.stability = _venue_rows(con, columns, "category_rank_stability", venue, "category")
    data.rank_sets = _venue_rows(con, columns, "paper_rank_sets", venue)
    data.category_sets = _venue_rows(con, columns, "category_rank_sets", venue, "category")
    if data.rank_sets is None and data.uncertainty is not None \
            and "marginal_lower" in data.uncertainty.columns:  # a build from before the split
        data.rank_sets = data.uncertainty[[*RANK_SET_COLUMNS, "category"]].copy()
    if data.category_sets is None and data.stability is not None \
            and "possibly_top_n_papers" in data.stability.columns:
        kept = ["venue", "category", *(c for c in CATEGORY_SET_COLUMNS if c in data.stability)]
        data.category_sets = data.stability[kept].copy()
    data.weight_sensitivity = _venue_rows(con, columns, "category_weight_sensitivity", venue)
    data.agreement = _venue_rows(con, columns, "label_agreement", venue,
                                 "other_label_model, paper_id")
    data.related = _venue_rows(con, columns, "paper_related", venue, "paper_id, related_rank")
    data.subthemes = _venue_rows(con, columns, "category_subthemes", venue,
                                 "category, paper_count desc, subtheme")
    data.paper_subthemes = _venue_rows(con, columns, "paper_subthemes", venue)
    data.label_audit = _venue_rows(con, columns, "label_audit", venue, "paper_id, taxonomy")
    if "related" in data.parts.built:  # the maps come with the related extra, and only with it
        data.map_positions = _venue_rows(con, columns, "paper_map_positions", venue,
                                         "map_category nulls first, paper_id")
        data.map_trust = _venue_rows(con, columns, "map_trustworthiness", venue)
    data.validity = validity.load(con, venue, set(columns))
    return data


def _settings(con: duckdb.DuckDBPyConnection, columns: dict[str, list[str]],
              venue: str) -> pd.DataFrame | None:
    if "build_settings" not in columns:
        return None
    where = " where venue = ? or venue is null" if "venue" in columns["build_settings"] else ""
    order = " order by built_at desc" if "built_at" in columns["build_settings"] else ""
    settings = _frame(con, f"select * from marts.build_settings{where}{order} limit 1",
                      [venue] if where else [])
    return settings if not settings.empty else None


def _loads(con: duckdb.DuckDBPyConnection) -> pd.DataFrame | None:
    """The raw layer's loads of papers and reviews (raw.loads, when the warehouse has it): which
    file gave which snapshot time, so the page can say where a snapshot's date comes from."""
    found = con.execute("select count(*) from information_schema.tables "
                        "where table_schema = 'raw' and table_name = 'loads'").fetchone()
    if not found or not found[0]:
        return None
    return _frame(con, """
        select kind, source, snapshot_at, max(finished_at) as loaded_at, sum(records_read) as records
        from raw.loads where kind <> 'labels'
        group by kind, source, snapshot_at order by snapshot_at, source""")
