"""The project's one error class for expected failures.

Bad input (a malformed file, an unknown taxonomy, a missing key, a warehouse held by another
process) is something the operator can fix: every command prints it as one line and exits 2.
Anything else is a bug and must surface with its traceback, so only this class (and its
subclasses, the domain errors) is caught by the command dispatch in `paperrank.core.dispatch`.
"""

from __future__ import annotations


class PaperrankError(ValueError):
    """An expected failure with a message that names the input and what to do about it.

    It is a ValueError because bad input is what it reports (and callers that caught the
    domain errors as ValueError keep working); a plain ValueError is not one of these.
    """


class WarehouseLocked(PaperrankError):
    """Another process holds the warehouse file (DuckDB allows one writer per file)."""


class SnapshotExists(PaperrankError, FileExistsError):
    """A snapshot file of that name is already there; snapshots are never overwritten."""
