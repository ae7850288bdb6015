"""The project's error classes for expected failures, and the exit code each one means.

Bad input (a malformed file, an unknown taxonomy, a missing key, a warehouse held by another
process) is something the operator can fix: the command layer prints it as one line and exits 2.
A check that ran and failed (a dbt test, a quality gate, the marts-agree rules) exits 1, naming
the check. A write the disk refuses (full, over quota, read-only: `disk_error`) is the
operator's to fix too, and is one line and exit 2 as well. Anything else is a bug and must
surface with its traceback, so only these are caught by the command layer (`paperrank.cli`).
"""

from __future__ import annotations

import errno


class PaperrankError(ValueError):
    """An expected failure with a message that names the input and what to do about it (exit 2).

    It is a ValueError because bad input is what it reports (and callers that caught the
    domain errors as ValueError keep working); a plain ValueError is not one of these.
    """

    exit_code = 2


class CheckFailed(RuntimeError):
    """A check ran and found a problem (a dbt test, a quality gate, marts that disagree): exit 1.

    The message names the check; the rows behind it are wherever the check keeps them.
    """

    exit_code = 1


class WarehouseLocked(PaperrankError):
    """Another process holds the warehouse file (DuckDB allows one writer per file)."""


class SnapshotExists(PaperrankError, FileExistsError):
    """A snapshot file of that name is already there; snapshots are never overwritten."""


# a disk that cannot take the write: full, over quota, read-only, or a file over its size limit
DISK_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EFBIG})


def disk_error(error: OSError) -> PaperrankError | None:
    """The one-line error for a write the disk refused (the operator frees space or picks
    another folder), or None for any other OSError, which stays a traceback."""
    if error.errno not in DISK_ERRNOS:
        return None
    where = f" {error.filename}" if error.filename else ""
    return PaperrankError(f"cannot write{where}: {error.strerror}; free space or choose a "
                          "writable folder, then run this again")
