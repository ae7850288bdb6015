"""A write DuckDB could not make because of the disk, as one line naming the file and the step.

DuckDB reports a full disk, a read-only folder or a folder removed under it as its own
exceptions (IOException, TransactionException "Failed to commit", FatalException "Failed to
create checkpoint"), with the operating system's reason inside the text: the command layer's
OSError map (paperrank.core.errors.disk_error) never sees them, and they ended in a traceback.
`duckdb_write_error` reads the reason and the file from that text and gives the operator's
one-line error instead; any other DuckDB error stays what it is (a bug shows its traceback).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from paperrank.core.errors import PaperrankError

# the operating system's reasons (strerror) a write fails with that the operator can fix
REASONS = {
    "No space left on device": "free space on its disk",
    "Disk quota exceeded": "free space on its disk",
    "File too large": "free space or lift the file size limit",
    "Read-only file system": "choose a writable folder",
    "Permission denied": "choose a writable folder",
    "No such file or directory": "its folder is gone: create it or choose another folder",
}
_FILE = re.compile(r'file "(?P<file>[^"]+)"')


def duckdb_write_error(error: BaseException, path: Path | str, doing: str,
                       outcome: str) -> PaperrankError | None:
    """`cannot write <file> (<doing>): <reason>; <outcome>; <what to do>` for a DuckDB error
    the disk caused (the file DuckDB names, else `path`), or None for any other error."""
    text = str(error)
    reason = next((r for r in REASONS if r in text), None)
    if reason is None:
        return None
    found = _FILE.search(text)
    where = found.group("file") if found else str(path)
    return PaperrankError(f"cannot write {where} ({doing}): {reason}; {outcome}: "
                          f"{REASONS[reason]}, then run this again")


@contextmanager
def one_line_when_full(path: Path | str, doing: str, outcome: str) -> Iterator[None]:
    """Turn what `duckdb_write_error` recognises, raised inside the block, into its one-line
    error; any other error goes on as it was."""
    try:
        yield
    except Exception as error:
        refused = duckdb_write_error(error, path, doing, outcome)
        if refused is None:
            raise
        raise refused from None
