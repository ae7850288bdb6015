"""One line, never a traceback, when another process holds a warehouse file.

The sentence itself lives in `paperrank.core.warehouse.lock_error`, shared with the loaders and the
classifier; this adds what the pipeline needs: reading it off dbt's error text, and checking
that a file is free before a build starts.
"""

from __future__ import annotations

from pathlib import Path

from paperrank.core.errors import WarehouseLocked
from paperrank.core.warehouse import lock_error, open_duckdb

__all__ = ["WarehouseLocked", "check_writable", "describe_lock"]


def describe_lock(error: BaseException | str) -> str | None:
    """The one-line explanation of a DuckDB lock conflict, or None for any other error."""
    locked = lock_error(None, error)
    return None if locked is None else str(locked)


def check_writable(path: Path) -> None:
    """Raise WarehouseLocked when another process holds `path` (a missing file is fine)."""
    if path.exists():
        open_duckdb(path).close()
