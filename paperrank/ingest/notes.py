"""Load a snapshot or dump of OpenReview API v2 notes (submissions with their replies).

The notes are parsed by `paperrank.ingest.notes_parser` (what counts as a record, how versions fold),
whether a paper was accepted is decided by `paperrank.ingest.status` (the rule every loader applies),
and the batch is written through `paperrank.core.loads`.

The snapshot time of a load is the time in the snapshot's file name, else the newest
`mdate` in the file, else the file's modification time; so loading the same file twice is
a no-op and a newer snapshot replaces the current rows while `raw.review_history` keeps the
older scores.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import duckdb

from paperrank.core import venue_name as venue_names
from paperrank.core.errors import PaperrankError
from paperrank.core.loads import LoadSummary, write_batch
from paperrank.core.warehouse import connect
from paperrank.ingest.jsonl_reader import MAX_LINE_BYTES, read_items
from paperrank.ingest.loaded import finish_load
from paperrank.ingest.notes_parser import LoadReport, NotesParser
from paperrank.ingest.profiles import Profile, resolve_profile
from paperrank.ingest.snapshots import snapshot_time


def load_notes(path: Path, venue: str, profile: str | None) -> None:
    """Load one notes file into the working warehouse; print its report and summary."""
    venue_names.check(venue, "--venue")
    form = resolve_profile(venue, profile)
    con = connect()
    try:
        summary, report = load_file(con, path, venue, form)
    finally:
        con.close()
    print(report.render())
    finish_load(summary)


def load_file(
    con: duckdb.DuckDBPyConnection, path: Path, venue: str, profile: Profile,
    max_line_bytes: int = MAX_LINE_BYTES, log: Callable[[str], None] | None = None,
) -> tuple[LoadSummary, LoadReport]:
    """Parse a notes file into one batch, write it, and report on stderr what was odd."""
    say = log or (lambda message: print(message, file=sys.stderr))
    path = Path(path)
    known = {row[0] for row in con.execute("select paper_id from raw.papers").fetchall()}
    parser = NotesParser(venue, profile, known)
    parser.consume(read_items(path, max_line_bytes))
    if parser.records == 0:
        raise PaperrankError(f"empty file: {path} holds no notes")
    batch = parser.finish(str(path.resolve()), _snapshot_at(path, parser.newest_ms))
    for warning in parser.report.warnings:
        say(f"warning: {warning}")
    return write_batch(con, batch), parser.report


def _snapshot_at(path: Path, newest_ms: int | None) -> datetime:
    named = snapshot_time(path)
    if named is not None:
        return named
    if newest_ms is not None:
        return datetime.fromtimestamp(newest_ms / 1000, tz=UTC)
    return datetime.fromtimestamp(path.stat().st_mtime, tz=UTC)
