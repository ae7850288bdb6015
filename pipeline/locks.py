"""One line, never a traceback, when another process holds a warehouse file.

DuckDB lets one process write a file, and a reader blocks writers too.  Its error names the
holder's PID deep inside a long message; `describe_lock` turns it into one sentence naming the
process and what to do.  Kept small and alone so every command can share it.
"""

from __future__ import annotations

import re
from pathlib import Path

import duckdb

LOCK = re.compile(r'Could not set lock on file "(?P<file>[^"]+)": Conflicting lock is held in '
                  r"(?P<program>.+?) \(PID (?P<pid>\d+)\)")


class WarehouseLocked(OSError):
    """Another process holds the warehouse file; the message says which and what to do."""


def describe_lock(error: BaseException | str) -> str | None:
    """The one-line explanation of a DuckDB lock conflict, or None for any other error."""
    match = LOCK.search(str(error))
    if not match:
        return None
    pid = match["pid"]
    return (f"warehouse {match['file']} is in use by process {pid} ({_command(pid, match['program'])}); "
            f"wait for it to finish or stop it (kill {pid}), then run this again")


def check_writable(path: Path) -> None:
    """Raise WarehouseLocked when another process holds `path` (a missing file is fine)."""
    if not path.exists():
        return
    try:
        duckdb.connect(str(path)).close()
    except duckdb.IOException as error:
        message = describe_lock(error)
        if message:
            raise WarehouseLocked(message) from None
        raise


def _command(pid: str, program: str) -> str:
    """The holder's command line when /proc shows it, else the program DuckDB names."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return program
    words = [w.decode(errors="replace") for w in raw.split(b"\0") if w]
    text = " ".join(words) or program
    return text if len(text) <= 120 else text[:117] + "..."
