"""The category CSVs of a published build: one implementation for every door.

`make rank`, `make export`, `paperrank export` and `paperrank rollback` call `export` directly;
ops' `dbt run-operation export_category_csvs` calls the same function through the SQL function
the dbt-duckdb plugin registers (`paperrank.publish.dbt_plugin`). Python rather than a macro,
so that no export but ops' own pays a dbt parse; the files, the manifest, the atomic swap and
the spreadsheet safety are the same whichever door calls it.

It reads only the published warehouse, attached read-only to a private in-memory database, so
it never blocks a build or an analyst. Each ranked category of the venue becomes `<slug>.csv`
(every paper, best first) with the columns of `columns()`; the build's parts decide which of
them there are: the rank uncertainty's and the rank sets' columns are there when the build has
those parts (`marts.build_settings.extras`), and the manifest lists the columns written.
Slugs must be plain `a-z0-9-` words, so a category can never write outside the folder.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import duckdb

from paperrank.core.errors import PaperrankError
from paperrank.core.seeds import ranking_signals
from paperrank.core.spreadsheet import SQL_FORMULA
from paperrank.publish import export_files, versions

SLUG = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


@dataclass(frozen=True)
class Column:
    """One CSV column: where its value comes from and how a spreadsheet gets it."""

    name: str
    kind: str  # text (neutralised), boolean (TRUE/FALSE) or number
    source: str = "rankings"  # rankings, uncertainty or rank_sets (the relation it is read from)
    expression: str = ""  # the source column when it is named otherwise

    def cell(self) -> str:
        value = f"{self.source}.{self.expression or self.name}"
        if self.kind == "text":
            # a cell that would start a spreadsheet formula gets a leading apostrophe (OWASP,
            # "CSV injection"): paperrank.core.spreadsheet's one rule
            return (f"case when regexp_matches({value}, '{SQL_FORMULA}') then '''' || {value} "
                    f"else {value} end as {self.name}")
        if self.kind == "boolean":
            return f"case when {value} then 'TRUE' when not {value} then 'FALSE' end as {self.name}"
        return f"{value} as {self.name}"


# the marts that give the columns of each part, and the part each is built in
SOURCES = {"uncertainty": "paper_rank_uncertainty", "rank_sets": "paper_rank_sets"}


def columns(parts: set[str]) -> list[Column]:
    """The CSV's columns, in order, in ONE place, for a build with `parts` (besides the ranking)."""
    signals = ranking_signals()
    chosen = [Column("category_rank", "number"), Column("paper_id", "text"), Column("title", "text"),
              Column("title_plain", "text"), Column("authors", "text"), Column("category", "text"),
              Column("venue", "text"), Column("review_count", "number")]
    chosen += [Column(signal, "number") for signal in signals]
    chosen += [Column(f"z_{signal}", "number") for signal in signals]
    chosen += [Column("local_top_overall", "number"), Column("is_top_n", "boolean")]
    if "uncertainty" in parts:
        chosen += [Column(name, kind, "uncertainty") for name, kind in (
            ("p_top_n", "number"), ("rank_p05", "number"), ("rank_p95", "number"),
            ("rank_band", "text"))]
    if "rank_sets" in parts:
        chosen += [Column("rank_set_lower", "number", "rank_sets", "marginal_lower"),
                   Column("rank_set_upper", "number", "rank_sets", "marginal_upper"),
                   Column("is_possibly_top_n", "boolean", "rank_sets"),
                   Column("is_certainly_top_n", "boolean", "rank_sets")]
    chosen += [Column(name, kind) for name, kind in (
        ("category_size", "number"), ("primary_area", "text"), ("status", "text"),
        ("label_model", "text"), ("label_rationale", "text"), ("forum_url", "text"),
        ("pdf_url", "text"), ("abstract", "text"))]
    return chosen


def export(published: Path, out_dir: Path, venue: str | None = None, bom: bool = False) -> str:
    """Write the venue's category CSVs of `published` into a new version of `out_dir` and
    switch to it; return the summary line. PaperrankError (one line) when it cannot (see
    `new_version`)."""
    export_files.claim(_folder(out_dir), create=False)  # a folder the project did not write: refused first
    version = new_version(published, out_dir, venue, bom)
    final = versions.write_versions(version)[0]
    return export_files.summary(version.link, final)


def new_version(published: Path, out_dir: Path, venue: str | None = None,
                bom: bool = False) -> versions.NewVersion:
    """The next version of `out_dir`: the venue's category CSVs of `published` and their
    manifest, written when the version is (`versions.write_versions`, which names a disk that
    refuses them in one line and leaves the previous CSVs as they were)."""
    folder = _folder(out_dir)
    if not published.exists():
        raise PaperrankError(f"no published warehouse at {published} (run `make rank` to build "
                             "and publish one)")
    source = Path(os.path.realpath(published))  # one build, however long the writing waits
    with _attached(source) as con:
        chosen = _venue(con, venue)

    def write(staged: Path) -> str:
        with _attached(source) as con:
            return _write(con, published, chosen, bom, staged)

    return versions.NewVersion(folder, "exports", "EXPORT_DIR", write, f"the CSVs of {chosen}",
                               "the previous CSVs are unchanged")


@contextmanager
def _attached(published: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """A private in-memory database with `published` attached read-only as `published`."""
    con = duckdb.connect(":memory:")
    try:
        con.execute(f"attach {_literal(str(published))} as published (read_only)")
        yield con
    finally:
        con.close()


def _write(con: duckdb.DuckDBPyConnection, published: Path, venue: str, bom: bool,
           staged: Path) -> str:
    """The venue's CSVs, one per ranked category, and their manifest into `staged`; the build id."""
    parts = _parts(con, venue)
    categories = con.execute(
        "select category_slug, category, count(*) from published.marts.paper_rankings "
        "where venue = ? group by all order by category_slug", [venue]).fetchall()
    for slug, category, _ in categories:
        if not SLUG.fullmatch(slug or ""):
            raise PaperrankError(f"category {category!r} has slug {slug!r}, which is not a safe "
                                 "file name (a-z, 0-9 and single dashes)")
    written = columns(parts)
    manifest = {"venue": venue, "published_db": str(published), "build_settings": _settings(con, venue),
                "columns": [column.name for column in written],
                "encoding": "utf-8-sig" if bom else "utf-8",
                "files": [{"file": f"{slug}.csv", "category": category, "rows": rows}
                          for slug, category, rows in categories]}
    for slug, _, _ in categories:
        con.execute(f"copy ({_select(written, parts)} where rankings.venue = ? and "
                    f"rankings.category_slug = ? order by rankings.category_rank) "
                    f"to {_literal(str(staged / f'{slug}.csv'))} (format csv, header)", [venue, slug])
    return export_files.complete(staged, manifest, bom)


def _folder(out_dir: Path) -> Path:
    text = str(out_dir).strip().replace("\\", "/")
    text = text.rstrip("/") or text
    if text in ("", ".", "..", "/"):
        raise PaperrankError(f"the export folder must be a folder of its own, got {str(out_dir)!r}")
    return Path(text)


def _venue(con: duckdb.DuckDBPyConnection, venue: str | None) -> str:
    """The venue to export: the one given, or the only one ranked."""
    try:
        venues = [row[0] for row in con.execute(
            "select distinct venue from published.marts.paper_rankings order by 1").fetchall()]
    except duckdb.CatalogException:
        raise PaperrankError("the published warehouse has no marts.paper_rankings: "
                             "publish a build first (make rank)") from None
    if venue is None:
        if len(venues) > 1:
            raise PaperrankError(f"paper_rankings holds {len(venues)} venues ({', '.join(venues)}); "
                                 "say which to export (VENUE=..., --venue)")
        if not venues:
            raise PaperrankError("the published build has no ranked papers")
        return venues[0]
    if venue not in venues:
        raise PaperrankError(f"venue {venue!r} has no ranked papers; ranked venues: "
                             f"{', '.join(venues) or 'none'}")
    return venue


def _tables(con: duckdb.DuckDBPyConnection) -> set[str]:
    return {row[0] for row in con.execute(
        "select table_name from duckdb_tables() where database_name = 'published' "
        "and schema_name = 'marts'").fetchall()}


def _parts(con: duckdb.DuckDBPyConnection, venue: str) -> set[str]:
    """The parts of the venue's build whose columns the CSVs carry: those the build says it
    has (build_settings.extras) and whose mart the publication holds."""
    tables = _tables(con)
    extras: set[str] = set()
    if "build_settings" in tables:
        names = {row[0] for row in con.execute(
            "select column_name from duckdb_columns() where database_name = 'published' "
            "and schema_name = 'marts' and table_name = 'build_settings'").fetchall()}
        if "extras" in names:
            row = con.execute("select min(extras) from published.marts.build_settings where venue = ?",
                              [venue]).fetchone()
            extras = {part for part in str(row[0] if row else "").split(",") if part}
        else:  # a build of before the parts had every part
            extras = set(SOURCES)
    return {part for part, mart in SOURCES.items() if part in extras and mart in tables}


def _settings(con: duckdb.DuckDBPyConnection, venue: str) -> object:
    """The venue's build_settings row (a publication always has one; a bare `dbt run` may not)."""
    if "build_settings" not in _tables(con):
        return None
    row = con.execute("select to_json(s)::varchar from published.marts.build_settings as s "
                      "where venue = ?", [venue]).fetchone()
    return json.loads(row[0]) if row else None


def _select(written: list[Column], parts: set[str]) -> str:
    joins = "".join(f" left join published.marts.{SOURCES[part]} as {part} "
                    f"on rankings.venue = {part}.venue and rankings.paper_id = {part}.paper_id"
                    for part in sorted(parts))
    return (f"select {', '.join(column.cell() for column in written)} "
            f"from published.marts.paper_rankings as rankings{joins}")


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
