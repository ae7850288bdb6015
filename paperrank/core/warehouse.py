"""The warehouse file: where it is, opening it (and naming who holds its lock), its schemas.

Every loader and every command opens the working warehouse through `connect`, which creates
the `raw` and `derived` schemas (paperrank.core.schema) so dbt's sources always exist; a file
another process holds is one line naming that process (`open_duckdb`). What a load writes into
the raw layer is paperrank.core.loads.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import duckdb

from paperrank.core import config
from paperrank.core.disk import one_line_when_full
from paperrank.core.errors import PaperrankError, WarehouseLocked
from paperrank.core.loads import Rejection
from paperrank.core.schema import DERIVED_DDL, RAW_DDL


def db_path() -> Path:
    """The warehouse file: `PAPERRANK_DB` if set, so scripts and dbt always agree."""
    return config.working_db()


def connect(path: Path | str | None = None, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """Open the warehouse (creating its folder and the raw schema when writable).

    DuckDB allows one writer per file, so callers keep the connection only as long as
    they load; dbt cannot run while it is open.  A file held by another process raises
    `WarehouseLocked` with one line naming that process (see `open_duckdb`).
    """
    target = Path(path) if path is not None else db_path()
    if read_only:
        if not target.exists():
            raise PaperrankError(f"warehouse {target} does not exist; load data first")
        return open_duckdb(target, read_only=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    with one_line_when_full(target, "opening the working warehouse", "nothing was loaded"):
        con = open_duckdb(target)
    try:
        with one_line_when_full(target, "creating the raw layer's tables", "nothing was loaded"):
            con.execute(RAW_DDL)
            # the derived schema too (empty until paperrank related runs), so dbt's `derived`
            # sources exist in every warehouse a loader wrote
            con.execute(DERIVED_DDL)
            _fill_reason_kinds(con)
    except Exception:
        con.close()
        raise
    return con


def _fill_reason_kinds(con: duckdb.DuckDBPyConnection) -> None:
    """Give rejections stored before reason_kind existed their kind (by Rejection.kind)."""
    reasons = con.execute(
        "select distinct reason from raw.rejected_records where reason_kind is null").fetchall()
    for (reason,) in reasons:
        con.execute("update raw.rejected_records set reason_kind = ? where reason = ?",
                    [Rejection("", reason).kind, reason])


_LOCK_FILE = re.compile(r'Could not set lock on file "(?P<file>[^"]+)"')
_LOCK_HOLDER = re.compile(r"Conflicting lock is held in (?P<program>.+?)(?: \(PID (?P<pid>\d+)\))?"
                          r"(?: by user \S+)?\.(?:\s|$)")


def one_row(con: duckdb.DuckDBPyConnection, sql: str) -> tuple[Any, ...]:
    """The one row an aggregate query returns (DuckDB types `fetchone()` as optional)."""
    row = con.execute(sql).fetchone()
    if row is None:
        raise RuntimeError(f"no row from: {sql}")
    return row


def open_duckdb(path: Path | str, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """`duckdb.connect`, with a lock held by another process turned into `WarehouseLocked`.

    This is the one place Python opens a warehouse file, so every loader, the classifier and
    the quality gate say the same thing about a lock; pipeline code that opens DuckDB files
    (a published copy, say) should call it too.
    """
    try:
        return duckdb.connect(str(path), read_only=read_only)
    except duckdb.IOException as error:
        locked = lock_error(path, error)
        if locked is None:
            raise
        raise locked from None


def lock_error(path: Path | str | None, error: BaseException | str) -> WarehouseLocked | None:
    """The one-line `WarehouseLocked` for a DuckDB lock conflict, or None for other errors.

    DuckDB names the holder's PID deep inside a long message; this is the one sentence every
    command (loaders, classifier, dbt wrappers, export) prints instead: which file, which
    process (its command line when /proc shows it) and what to do. `path` may be None when
    only the error text is known (dbt's); the file is then read off the message.
    """
    text = str(error)
    if "Could not set lock" not in text and "Conflicting lock" not in text:
        return None
    if path is None:
        named = _LOCK_FILE.search(text)
        path = named.group("file") if named else "the warehouse"
    found = _LOCK_HOLDER.search(text)
    if found and found.group("pid"):
        pid = found.group("pid")
        holder = f"process {pid} ({_command_line(pid, found.group('program'))})"
        action = f"wait for it to finish or stop it (kill {pid})"
    elif found:
        holder, action = f"another process ({found.group('program')})", "wait for it to finish or stop it"
    else:
        holder, action = "another process", "wait for it to finish or stop it"
    return WarehouseLocked(
        f"warehouse {path} is in use by {holder}; {action}, then run this again "
        "(DuckDB allows one writer, and a writer excludes readers)"
    )


def _command_line(pid: str, program: str) -> str:
    """The holder's command line when /proc shows it, else the program DuckDB names."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return program
    words = [w.decode(errors="replace") for w in raw.split(b"\0") if w]
    text = " ".join(" ".join(words).split()) or program  # one line, whatever the arguments hold
    return text if len(text) <= 120 else text[:117] + "..."

