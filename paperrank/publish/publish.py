"""Publish an audited build: a new, complete DuckDB file, then one atomic switch.

The working warehouse (PAPERRANK_DB) is where loaders and dbt write and where the audit runs.
Analysts open the published warehouse (PAPERRANK_PUBLISHED_DB), a symbolic link to one
complete build in `<published>.versions/`.  Publishing copies the build's marts, the seeds and
the loaders' rejected records into a new file, checkpoints it (no WAL), makes it durable and
switches the link (`paperrank.publish.versions`).  Publication files are never written again, so a
reader never blocks a build, and a reader that opened an older build keeps reading it.

The build's marts are those `marts.build_marts` lists: the build writes that table itself (the
same dbt run, the same build id as `marts.build_settings`), one row per mart of the ranking and
of the extras it built.  The working warehouse keeps the marts of earlier builds (a build
without the rank uncertainty does not drop `paper_rank_uncertainty`), so publishing every table
of `marts` would publish a stale mart beside a new ranking.  A list in the warehouse, rather
than dbt's manifest, because it says what that build wrote whoever publishes it and whenever:
`make rank` in the same process, `paperrank publish` after a build by hand, a Spark build, with
no parse of the project and no chance of reading another checkout's or another run's manifest.
"""

from __future__ import annotations

import os
from pathlib import Path

import duckdb

from paperrank.core import config, parts
from paperrank.core.errors import PaperrankError
from paperrank.core.warehouse import one_row
from paperrank.publish import versions

# what analysts get: every table of these schemas, plus these single relations
SCHEMAS = ("marts", "seeds")
RELATIONS = (("staging", "stg_raw__rejected_records"),)


def published_path() -> Path:
    """The published warehouse: `PAPERRANK_PUBLISHED_DB` if set."""
    return config.published_db()


def require_published(path: Path) -> Path:
    """Refuse a missing published warehouse, naming the file looked for."""
    if not path.exists():
        raise PaperrankError(
            f"no published warehouse at {path} (run `make rank` to build and publish one)")
    return path


def publish(working: Path, published: Path, keep: int = versions.KEEP,
            engine: str = "duckdb", extras: tuple[str, ...] | None = None) -> tuple[str, Path]:
    """Copy the working warehouse's published relations into a new version and switch to it.

    On Spark the relations are the Parquet tables Spark built (`paperrank.engines.spark`), read through
    DuckDB, so the publication is the same kind of DuckDB file whichever engine built it.
    `extras`, when given, are the extras the build must hold (marts.build_settings.extras):
    a build of other extras is refused.  Returns the build id and the version file.  Raises
    before switching on any error."""
    staged = versions.versions_dir(published) / f"{versions.TMP_PREFIX}{os.getpid()}-{published.name}"
    try:
        claim(published)  # makes the versions folder: the first write, on a read-only disk too
        versions.prune(published, keep)
        staged.unlink(missing_ok=True)
        return _publish(working, published, staged, keep, engine, extras)
    except PaperrankError:  # a build that cannot be published as it is
        _remove_staged(staged)
        raise
    except (OSError, duckdb.IOException, duckdb.TransactionException) as error:  # a full or read-only disk
        _remove_staged(staged)
        raise PaperrankError(f"publishing to {published} failed, nothing was switched: "
                             f"{_first_line(error)}") from None


def _remove_staged(staged: Path) -> None:
    versions._remove(staged)
    versions._remove(staged.with_name(staged.name + ".wal"))


def _publish(working: Path, published: Path, staged: Path, keep: int,
             engine: str, extras: tuple[str, ...] | None) -> tuple[str, Path]:
    con = duckdb.connect(str(staged))
    try:
        _attach_working(con, working, engine)
        build_id, held = build_marts(con, working, extras)
        for schema, table, comment in _relations(con):
            if schema == "marts" and table not in held:
                continue  # an earlier build's mart, of an extra this build did not build
            con.execute(f'create schema if not exists "{schema}"')
            con.execute(f'create table "{schema}"."{table}" as select * from work."{schema}"."{table}"')
            _copy_comments(con, schema, table, comment)
        con.execute("detach work")
        con.execute("checkpoint")
    finally:
        con.close()
    final = versions.install(published, staged, versions.version_name(build_id, ".duckdb"),
                             is_legacy_publication, keep)
    return build_id, final


def check_build(working: Path, engine: str, extras: tuple[str, ...]) -> None:
    """Before an audit: the working warehouse holds one build of exactly `extras`, with every
    mart it lists (`build_marts`), so the audit checks that build's marts and no other's."""
    con = duckdb.connect()
    try:
        _attach_working(con, working, engine)
        build_marts(con, working, extras)
    finally:
        con.close()


def _attach_working(con: duckdb.DuckDBPyConnection, working: Path, engine: str) -> None:
    """The working warehouse's relations as the database `work` (read-only)."""
    if engine == "duckdb":
        con.execute(f"attach {_literal(str(working))} as work (read_only)")
    else:
        _attach_spark_tables(con)


def build_marts(con: duckdb.DuckDBPyConnection, working: Path,
                extras: tuple[str, ...] | None) -> tuple[str, set[str]]:
    """The build id of the warehouse attached as `work` and the marts that build holds
    (marts.build_marts); PaperrankError when they cannot be told apart from an earlier
    build's, when the build holds other extras than `extras`, or when one is missing."""
    tables = {table for schema, table, _ in _relations(con) if schema == "marts"}
    if "build_settings" not in tables:
        raise PaperrankError(f"{working} has no marts.build_settings: nothing to publish")
    first, last, recorded, other = one_row(
        con, "select min(build_id), max(build_id), min(extras), max(extras) "
             "from work.marts.build_settings")
    if first is None:
        raise PaperrankError(f"{working} has no marts.build_settings row: nothing to publish")
    if last != first or other != recorded:
        raise PaperrankError(f"{working} holds marts.build_settings rows of several builds; "
                             "build again before publishing")
    if "build_marts" not in tables:
        raise PaperrankError(f"{working} has no marts.build_marts (built before the parts "
                             "existed): build again before publishing")
    rows = con.execute("select build_id, mart from work.marts.build_marts").fetchall()
    if not rows or {row[0] for row in rows} != {first}:
        raise PaperrankError(f"{working}: marts.build_marts is not of build {first} (a build "
                             "stopped between the two); build again before publishing")
    if extras is not None and recorded != parts.describe(extras):
        wanted = parts.describe(extras) or parts.NONE
        raise PaperrankError(
            f"{working} holds a build with extras {recorded or parts.NONE}, not {wanted}: publish "
            f"it with --extras {recorded or parts.NONE} (EXTRAS={recorded or parts.NONE}), or "
            "build the extras you want first")
    held = {row[1] for row in rows}
    missing = sorted(held - tables)
    if missing:
        raise PaperrankError(f"{working} lacks the marts {', '.join(missing)} of build {first}; "
                             "build again before publishing")
    return first, held


def claim(published: Path, create: bool = True) -> None:
    """Refuse a PAPERRANK_PUBLISHED_DB the project did not write (`versions.claim`)."""
    versions.claim(published, "published", is_legacy_publication, "PAPERRANK_PUBLISHED_DB",
                   create)


def is_legacy_publication(path: Path) -> bool:
    """A published warehouse of the single-file layout: a DuckDB file with a build's
    marts.build_settings and no raw layer (so neither the working warehouse nor any
    unrelated DuckDB file)."""
    from paperrank.core.warehouse import db_path

    if not path.is_file() or path.resolve() == db_path().resolve():
        return False
    try:
        con = duckdb.connect(str(path), read_only=True)
    except duckdb.Error:
        return False
    try:
        schemas = {r[0] for r in con.execute(
            "select distinct schema_name from duckdb_tables()").fetchall()}
        settings = one_row(con, "select count(*) from duckdb_tables() where schema_name = 'marts' "
                           "and table_name = 'build_settings'")[0]
    except duckdb.Error:
        return False
    finally:
        con.close()
    return settings == 1 and "raw" not in schemas


def _attach_spark_tables(con: duckdb.DuckDBPyConnection) -> None:
    """An in-memory database `work` whose views read the Parquet tables of the Spark build."""
    from paperrank.engines.spark import spark_tables, warehouse_dir

    con.execute("attach ':memory:' as work")
    for schema, table, files in spark_tables(warehouse_dir(), SCHEMAS + tuple(s for s, _ in RELATIONS)):
        con.execute(f'create schema if not exists work."{schema}"')
        con.execute(f'create view work."{schema}"."{table}" as select * from read_parquet({_literal(files)})')


def rollback(published: Path) -> tuple[Path, Path]:
    """Point the published warehouse at the publication before the current one in the
    publication history (so a build withdrawn by an earlier rollback stays withdrawn)."""
    require_published(published)
    claim(published, create=False)
    return versions.withdraw(published)


def _relations(con: duckdb.DuckDBPyConnection) -> list[tuple[str, str, str | None]]:
    rows = con.execute(
        "select schema_name, table_name, comment from duckdb_tables() where database_name = 'work' "
        "union all select schema_name, view_name, comment from duckdb_views() "
        "where database_name = 'work' and not internal order by 1, 2").fetchall()
    return [(s, t, c) for s, t, c in rows if s in SCHEMAS or (s, t) in RELATIONS]


def _copy_comments(con: duckdb.DuckDBPyConnection, schema: str, table: str, comment: str | None) -> None:
    """Keep dbt's persisted docs, so the published tables explain themselves too."""
    if comment:
        con.execute(f'comment on table "{schema}"."{table}" is {_literal(comment)}')
    for column, text in con.execute(
            "select column_name, comment from duckdb_columns() where database_name = 'work' "
            "and schema_name = ? and table_name = ? and comment is not null", [schema, table]).fetchall():
        con.execute(f'comment on column "{schema}"."{table}"."{column}" is {_literal(text)}')


def _first_line(error: BaseException) -> str:
    text = getattr(error, "strerror", None) or str(error)
    return str(text).strip().splitlines()[0][:200] if str(text).strip() else type(error).__name__


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
