"""Publications of the published warehouse: a new, complete DuckDB file, then one atomic switch.

The working warehouse (PAPERRANK_DB) is where loaders and dbt write and where the audit runs.
Analysts open the published warehouse (PAPERRANK_PUBLISHED_DB), a symbolic link to one
complete publication in `<published>.versions/`.  Publication files are never written again, so
a reader never blocks a build, and a reader that opened an older publication keeps reading it.

One published warehouse holds every venue's latest audited build, side by side (analysts query
one file; every mart has a `venue` column). Publishing a build composes a new file: the build's
rows for the venues it ranked, and every other venue's rows as the current publication has them
(relations without a venue column, the seeds and the loaders' rejected records, come from the
new build). So publishing, or rolling back, one venue never removes, hides or changes another
venue's rows. The file is checkpointed (no WAL), made durable, and the link switched
(`paperrank.publish.versions`). Which publication holds each venue's builds is kept beside them
(`paperrank.publish.venue_history`), so `rollback(venue)` brings one venue's previous build back.

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
from dataclasses import dataclass
from pathlib import Path

import duckdb

from paperrank.core import build_parts, config, venue_name
from paperrank.core.errors import PaperrankError
from paperrank.core.seeds import ROOT
from paperrank.core.warehouse import one_row
from paperrank.publish import venue_history, versions

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


def publish(working: Path, published: Path, keep: int = versions.KEEP, engine: str = "duckdb",
            extras: tuple[str, ...] | None = None) -> tuple[str, Path]:
    """Compose the build in `working` into a new publication (`_stage`) and switch the
    published warehouse to it (`_install`); the build id and the version file. Raises
    PaperrankError, leaving the published warehouse as it was and no file behind, when the
    build cannot be published or the disk refuses it."""
    return _install(_stage(working, published, keep, engine, extras))


@dataclass(frozen=True)
class Staged:
    """A publication composed and checkpointed in the versions folder, not yet switched in:
    `_install` makes it durable and switches to it, `_discard` removes it."""

    published: Path
    file: Path
    build_id: str
    venues: tuple[str, ...]
    keep: int


def _stage(working: Path, published: Path, keep: int = versions.KEEP,
           engine: str = "duckdb", extras: tuple[str, ...] | None = None) -> Staged:
    """Compose the build's publication and switch nothing (`_install` switches it in).

    On Spark the relations are the Parquet tables Spark built (`paperrank.engines.spark`), read
    through DuckDB, so the publication is the same kind of DuckDB file whichever engine built
    it. `extras`, when given, are the extras the build must hold (marts.build_settings.extras):
    a build of other extras is refused. Versions beyond the `keep` latest are removed.
    Raises PaperrankError, leaving nothing behind, when the build cannot be published or the
    disk refuses the file."""
    staged = _staged_path(published)
    try:
        claim(published)  # makes the versions folder: the first write, on a read-only disk too
        versions.prune(published, keep)
        staged.unlink(missing_ok=True)
        con = duckdb.connect(str(staged))
        try:
            _attach_working(con, working, engine)
            build_id, held = build_marts(con, working, extras)
            venues = tuple(r[0] for r in con.execute(
                "select distinct venue from work.marts.build_settings order by 1").fetchall())
            compose(con, "work", list(venues), versions.current(published), held)
        finally:
            con.close()
    except PaperrankError:  # a build that cannot be published as it is
        _remove_staged(staged)
        raise
    except (OSError, duckdb.IOException, duckdb.TransactionException) as error:  # a full or read-only disk
        _remove_staged(staged)
        raise _not_switched(published, error) from None
    return Staged(published, staged, build_id, venues, keep)


def _install(staged: Staged) -> tuple[str, Path]:
    """Switch the published warehouse to the `staged` publication (one atomic rename of the
    link) and record which venues' builds it holds; the build id and the version file."""
    published = staged.published
    try:
        # a plain published file of the single-file layout becomes the first version: its builds
        # are the first of each venue's history, so a rollback can go back to them
        adopted = venue_history.builds_in(published) if is_legacy_publication(published) else {}
        final = versions.install(published, staged.file,
                                 versions.version_name(staged.build_id, ".duckdb"),
                                 is_legacy_publication, staged.keep)
        if adopted:
            legacy = next(name for name in versions.history(published) if "legacy00" in name)
            venue_history.published(published, adopted, legacy)
        venue_history.published(published, {venue: staged.build_id for venue in staged.venues},
                                final.name)
    except PaperrankError:
        _discard(staged)
        raise
    except (OSError, duckdb.IOException, duckdb.TransactionException) as error:
        _discard(staged)
        raise _not_switched(published, error) from None
    return staged.build_id, final


def _discard(staged: Staged) -> None:
    """Remove a staged publication that will not be installed (its audit failed)."""
    _remove_staged(staged.file)


def _not_switched(published: Path, error: BaseException) -> PaperrankError:
    return PaperrankError(f"publishing to {published} failed, nothing was switched: "
                          f"{_first_line(error)}")


def _staged_path(published: Path) -> Path:
    """Where this process writes a new publication before it is installed (a temporary name
    in the versions folder, which `versions.prune` clears when its process is gone)."""
    return versions.versions_dir(published) / f"{versions.TMP_PREFIX}{os.getpid()}-{published.name}"


def _remove_staged(staged: Path) -> None:
    versions._remove(staged)
    versions._remove(staged.with_name(staged.name + ".wal"))


def compose(con: duckdb.DuckDBPyConnection, source: str, venues: list[str], current: Path | None,
            held: set[str] | None = None) -> None:
    """Fill the new publication (`con`'s database) with the relations of the database attached
    as `source` for `venues`, and every other venue's rows of the publication `current`.

    A relation with a venue column is the union (by column name) of the source's rows of
    `venues` and the current publication's rows of every other venue; one without (the seeds,
    the rejected records) is the source's. A relation only the current publication has keeps
    its other venues' rows. dbt's comments come along, so the tables explain themselves.

    `held`, when given, names the source's marts of this build (build_marts): any other mart of
    the source is an earlier build's and is not read, so a venue published without an extra has
    no rows in that extra's marts (another venue's rows stay)."""
    if current is not None:
        con.execute(f"attach {_literal(str(current))} as live (read_only)")
    # one transaction: a commit per table and per comment wrote and synced the log hundreds of
    # times, most of the publish step's time
    con.execute("begin")
    try:
        fresh = {(s, t): c for s, t, c in _relations(con, source)
                 if held is None or s != "marts" or t in held}
        kept = {(s, t): c for s, t, c in _relations(con, "live")} if current is not None else {}
        comments = _column_comments(con, [source, "live"] if current is not None else [source])
        chosen = ", ".join(_literal(v) for v in venues) or "null"
        for schema, table in sorted(fresh.keys() | kept.keys()):
            selects = []
            if (schema, table) in fresh:
                venue_filter = (f" where venue in ({chosen})"
                                if _has_venue(con, source, schema, table) else "")
                selects.append(f'select * from {source}."{schema}"."{table}"{venue_filter}')
            if (schema, table) in kept and _has_venue(con, "live", schema, table):
                selects.append(f'select * from live."{schema}"."{table}" where venue not in ({chosen})')
            if not selects:
                continue  # a venue-less relation the new build no longer has
            con.execute(f'create schema if not exists "{schema}"')
            con.execute(f'create table "{schema}"."{table}" as ' + " union all by name ".join(selects))
            origin = source if (schema, table) in fresh else "live"
            _copy_comments(con, schema, table, fresh.get((schema, table), kept.get((schema, table))),
                           comments.get((origin, schema, table), []))
        con.execute("commit")
    except BaseException:
        con.execute("rollback")
        raise
    finally:
        if current is not None:
            con.execute("detach live")
    con.execute(f"detach {source}")
    con.execute("checkpoint")


def _has_venue(con: duckdb.DuckDBPyConnection, database: str, schema: str, table: str) -> bool:
    return con.execute("select count(*) from duckdb_columns() where database_name = ? and "
                       "schema_name = ? and table_name = ? and column_name = 'venue'",
                       [database, schema, table]).fetchone() == (1,)


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
    tables = {table for schema, table, _ in _relations(con, "work") if schema == "marts"}
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
    if extras is not None and recorded != build_parts.describe(extras):
        wanted = build_parts.describe(extras) or build_parts.NONE
        raise PaperrankError(
            f"{working} holds a build with extras {recorded or build_parts.NONE}, not {wanted}: publish "
            f"it with --extras {recorded or build_parts.NONE} (EXTRAS={recorded or build_parts.NONE}), or "
            "build the extras you want first")
    for (venue,) in con.execute("select distinct venue from work.marts.build_settings").fetchall():
        venue_name.check(venue, f"{working}'s marts.build_settings")
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
    """A published warehouse of the single-file layout: a DuckDB file (not the working
    warehouse) that holds nothing but what `publish` copies, tables of the project's marts
    and seeds and `staging.stg_raw__rejected_records`, with the rankings and one build id in
    `marts.build_settings`.  A user's DuckDB file with anything else in it (a table of their
    own, a view, another schema) is not one, so it is never moved nor, later, deleted."""
    from paperrank.core.warehouse import db_path

    if not path.is_file() or path.is_symlink() or path.resolve() == db_path().resolve():
        return False
    try:
        con = duckdb.connect(str(path), read_only=True)
    except duckdb.Error:
        return False
    try:
        tables = set(con.execute(
            "select schema_name, table_name from duckdb_tables() "
            "where database_name = current_database()").fetchall())
        views = one_row(con, "select count(*) from duckdb_views() where not internal "
                             "and database_name = current_database()")[0]
        builds = (one_row(con, "select count(distinct build_id), count(*) filter "
                               "(where build_id is null) from marts.build_settings")
                  if ("marts", "build_settings") in tables else (0, 0))
    except duckdb.Error:
        return False
    finally:
        con.close()
    return (views == 0 and tables <= _publication_tables() and builds == (1, 0)
            and ("marts", "paper_rankings") in tables)


def _publication_tables() -> set[tuple[str, str]]:
    """What a publication may hold: the project's marts and seeds, and the rejected records."""
    marts = {("marts", model.stem) for model in (ROOT / "models" / "marts").rglob("*.sql")}
    seeds = {("seeds", seed.stem) for seed in (ROOT / "seeds").rglob("*.csv")}
    return marts | seeds | set(RELATIONS)


def _attach_spark_tables(con: duckdb.DuckDBPyConnection) -> None:
    """An in-memory database `work` whose views read the Parquet tables of the Spark build."""
    from paperrank.engines.spark import spark_tables, warehouse_dir

    con.execute("attach ':memory:' as work")
    for schema, table, files in spark_tables(warehouse_dir(), SCHEMAS + tuple(s for s, _ in RELATIONS)):
        con.execute(f'create schema if not exists work."{schema}"')
        con.execute(f'create view work."{schema}"."{table}" as select * from read_parquet({_literal(files)})')


def rollback(published: Path, venue: str | None = None) -> tuple[str, str, Path]:
    """Publish `venue`'s previous audited build again, every other venue as it is: a new
    publication composed of the current one and the earlier publication that holds that
    build. `venue` may be left out when the published warehouse holds one venue. Returns the
    withdrawn and the restored build ids and the new version."""
    require_published(published)
    claim(published, create=False)
    current = versions.current(published)
    if current is None:
        raise PaperrankError(f"{published} has no earlier publication to roll back to")
    venue = venue_history.one_venue(current, venue)
    withdrawn, restored, holder = venue_history.previous(published, venue)
    staged = _staged_path(published)
    try:
        staged.unlink(missing_ok=True)
        con = duckdb.connect(str(staged))
        try:
            con.execute(f"attach {_literal(str(holder))} as earlier (read_only)")
            compose(con, "earlier", [venue], current)
        finally:
            con.close()
        final = versions.install(published, staged, versions.version_name(restored, ".duckdb"),
                                 is_legacy_publication)
    except (OSError, duckdb.IOException, duckdb.TransactionException) as error:
        _remove_staged(staged)
        raise PaperrankError(f"rolling back {venue} in {published} failed, nothing was switched: "
                             f"{_first_line(error)}") from None
    venue_history.rolled_back(published, venue, final.name)
    return withdrawn, restored, final


def _relations(con: duckdb.DuckDBPyConnection, database: str) -> list[tuple[str, str, str | None]]:
    rows = con.execute(
        "select schema_name, table_name, comment from duckdb_tables() where database_name = ? "
        "union all select schema_name, view_name, comment from duckdb_views() "
        "where database_name = ? and not internal order by 1, 2", [database, database]).fetchall()
    return [(s, t, c) for s, t, c in rows if s in SCHEMAS or (s, t) in RELATIONS]


def _column_comments(con: duckdb.DuckDBPyConnection,
                     databases: list[str]) -> dict[tuple[str, str, str], list[tuple[str, str]]]:
    """Every commented column of `databases`, by (database, schema, table), in one catalog read."""
    found: dict[tuple[str, str, str], list[tuple[str, str]]] = {}
    for database, schema, table, column, text in con.execute(
            "select database_name, schema_name, table_name, column_name, comment from duckdb_columns() "
            "where list_contains(?, database_name) and comment is not null "
            "order by database_name, schema_name, table_name, column_index", [databases]).fetchall():
        found.setdefault((database, schema, table), []).append((column, text))
    return found


def _copy_comments(con: duckdb.DuckDBPyConnection, schema: str, table: str, comment: str | None,
                   columns: list[tuple[str, str]]) -> None:
    """Keep dbt's persisted docs, so the published tables explain themselves too."""
    if comment:
        con.execute(f'comment on table "{schema}"."{table}" is {_literal(comment)}')
    for column, text in columns:
        con.execute(f'comment on column "{schema}"."{table}"."{column}" is {_literal(text)}')


def _first_line(error: BaseException) -> str:
    text = getattr(error, "strerror", None) or str(error)
    return str(text).strip().splitlines()[0][:200] if str(text).strip() else type(error).__name__


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
