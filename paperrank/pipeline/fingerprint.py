"""A fingerprint of the raw layer, so a build is published only from the raw rows it checked.

`make rank` reads the raw tables for its checks, then dbt opens the file and builds.  A loader
that committed in between once got its rows built and published unchecked (a paper with 100
reviews).  The pipeline takes this fingerprint before the raw checks read the tables and again
after the build, and refuses to publish when they differ, naming the tables that changed.
Each table's fingerprint is its row count and the sum of its rows' hashes (order-free, one scan).
"""

from __future__ import annotations

from pathlib import Path

from paperrank.core.errors import PaperrankError
from paperrank.core.warehouse import one_row, open_duckdb

Fingerprint = dict[str, tuple[int, int]]


def take(db: Path) -> Fingerprint:
    """Row count and hash sum of every raw table (read-only, closed at once)."""
    con = open_duckdb(db, read_only=True)
    try:
        tables = [r[0] for r in con.execute(
            "select table_name from duckdb_tables() where schema_name = 'raw' order by 1").fetchall()]
        prints: Fingerprint = {}
        for table in tables:
            count, total = one_row(
                con, f'select count(*), coalesce(sum(hash(t)), 0) from raw."{table}" as t')
            prints[table] = (int(count), int(total))
        return prints
    finally:
        con.close()


def require_unchanged(before: Fingerprint, db: Path) -> None:
    """Raise (nothing is published) when the raw layer changed since `before` was taken."""
    require_same(before, take(db))


def require_same(before: Fingerprint, after: Fingerprint) -> None:
    """Raise (nothing is published) when `after`, taken later, differs from `before`."""
    changed = sorted(t for t in before.keys() | after.keys() if before.get(t) != after.get(t))
    if changed:
        detail = ", ".join(f"raw.{t} ({before.get(t, (0,))[0]} -> {after.get(t, (0,))[0]} rows)"
                           for t in changed)
        raise PaperrankError(f"the raw layer changed during the build: {detail}; a loader wrote "
                             "while make rank ran, so nothing was published (run make rank again)")
