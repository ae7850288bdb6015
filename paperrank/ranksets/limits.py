"""The bounds of `paperrank rank-sets`: how many rows, how much memory, which path.

- **Memory:** DuckDB runs under the project's memory limit (`PAPERRANK_MEMORY_LIMIT`, 1GB by
  default, as every dbt model: profiles.yml) and spills to a temporary folder of the command's
  own beyond it; DuckDB's threads are `PAPERRANK_DUCKDB_THREADS` (2).
- **Rows:** at most `--max-rows` / `PAPERRANK_RANK_SETS_MAX_ROWS`, by default one row per
  `BYTES_PER_ROW` bytes of that memory limit (1GB: 1,000,000 rows; the scaled path's working set
  is about that per row, so the default grows with the memory given). A larger file is refused
  while it is read, before any work, saying both settings.
- **Path:** the exact path (csranks' computation, papers x B draw rows) when its draw rows fit
  `rank_sets_row_budget` (as the models choose per category: int_rank_set_categories) and its
  bounds' pairs (rows^2) fit twice that; otherwise the scaled path, with the same guarantee
  (docs/rank-confidence-sets.md). A table smaller than the scaled path needs is always exact.
- **tau on the scaled path:** its exact memberships count each of the tau best rows against every
  row (tau x rows pairs); more than `SCALED_TAU_PAIRS` is refused before any work.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

from paperrank.core.errors import PaperrankError

DEFAULT_MEMORY_LIMIT = "1GB"  # profiles.yml's default for PAPERRANK_MEMORY_LIMIT
DEFAULT_THREADS = "2"  # profiles.yml's default for PAPERRANK_DUCKDB_THREADS
BYTES_PER_ROW = 1000
MAX_ROWS_LIMIT = 10_000_000  # the numeric safe range (table.py) is derived for at most this many
SCALED_TAU_PAIRS = 1_000_000_000
MEMORY_ENV, ROWS_ENV, THREADS_ENV = "PAPERRANK_MEMORY_LIMIT", "PAPERRANK_RANK_SETS_MAX_ROWS", "PAPERRANK_DUCKDB_THREADS"
# DuckDB's units: KB, MB, GB, TB are powers of 1000, KiB ... TiB powers of 1024
UNITS = {"b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
         "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}
SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([a-zA-Z]+|%)\s*")
SMALLEST_MEMORY = 16 * 10**6


@dataclass(frozen=True)
class Limits:
    """The bounds in force for one run, with where each came from (for the refusals)."""

    memory_limit: str
    memory_bytes: int
    max_rows: int
    max_rows_source: str
    threads: int

    def rows_refusal(self, path: object) -> str:
        """The one line that refuses a file past the row bound and says how to raise it."""
        raise_it = f"--max-rows N or {ROWS_ENV}=N"
        if self.max_rows_source == "default":
            where = (f"the rank-sets bound: one row per {BYTES_PER_ROW:,} bytes of "
                     f"{MEMORY_ENV}={self.memory_limit}")
            how = f"raise {MEMORY_ENV} (e.g. 2GB for 2,000,000 rows), or give {raise_it}"
        else:
            where = f"the rank-sets bound set by {self.max_rows_source}"
            how = f"raise it, with {MEMORY_ENV} ({self.memory_limit}) at about {BYTES_PER_ROW:,} bytes a row"
        return f"{path} has more than {self.max_rows:,} rows, {where}; {how}"


def memory_bytes(text: str) -> int:
    """A DuckDB memory size (1GB, 512MiB, 1.5 GB, 80%) in bytes; anything else is refused."""
    match = SIZE.fullmatch(text)
    if match is None or (match.group(2) != "%" and match.group(2).lower() not in UNITS):
        raise PaperrankError(f"{MEMORY_ENV}={text!r} is not a memory size: give a number and a unit "
                             "(KB, MB, GB, TB, KiB, MiB, GiB, TiB) or a percentage, e.g. 1GB")
    number, unit = float(match.group(1)), match.group(2)
    if unit == "%":
        if not 0 < number <= 100:
            raise PaperrankError(f"{MEMORY_ENV}={text!r}: a percentage of the memory from 1 to 100")
        size = int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") * number / 100)
    else:
        size = int(number * UNITS[unit.lower()])
    if size < SMALLEST_MEMORY:
        raise PaperrankError(f"{MEMORY_ENV}={text!r} is below the {SMALLEST_MEMORY // 10**6}MB "
                             "rank-sets needs at the least")
    return size


def resolve(max_rows: int | None, environ: dict[str, str] | None = None) -> Limits:
    """The limits from the option and the environment, each checked (a wrong one is one line)."""
    env = dict(os.environ if environ is None else environ)
    memory = env.get(MEMORY_ENV, DEFAULT_MEMORY_LIMIT).strip() or DEFAULT_MEMORY_LIMIT
    size = memory_bytes(memory)
    threads_text = env.get(THREADS_ENV, DEFAULT_THREADS).strip()
    if not threads_text.isdigit() or not 1 <= int(threads_text) <= 256:
        raise PaperrankError(f"{THREADS_ENV}={threads_text!r}: a whole number from 1 to 256")
    if max_rows is not None:
        rows, source = max_rows, "--max-rows"
    elif env.get(ROWS_ENV, "").strip():
        text = env[ROWS_ENV].strip()
        if not text.isdigit():
            raise PaperrankError(f"{ROWS_ENV}={text!r}: a whole number from 1 to {MAX_ROWS_LIMIT:,}")
        rows, source = int(text), ROWS_ENV
    else:
        rows, source = min(MAX_ROWS_LIMIT, size // BYTES_PER_ROW), "default"
    if not 1 <= rows <= MAX_ROWS_LIMIT:
        raise PaperrankError(f"{source} {rows}: a whole number from 1 to {MAX_ROWS_LIMIT:,}")
    return Limits(memory, size, rows, source, int(threads_text))


def choose_path(rows: int, draws: int, settings: dict[str, Any]) -> str:
    """`exact` or `scaled`, as the module's docstring says."""
    budget = int(settings["row_budget"])
    if rows < 2 * int(settings["candidates"]) + 2:  # too small for the scaled path's draws
        return "exact"
    if rows * draws <= budget and rows * rows <= 2 * budget:
        return "exact"
    return "scaled"


def check_tau_cost(path: str, rows: int, tau: int | None) -> None:
    """Refuse a tau whose exact memberships on the scaled path would compare too many pairs."""
    if path == "scaled" and tau is not None and tau * rows > SCALED_TAU_PAIRS:
        raise PaperrankError(
            f"--tau {tau} with {rows:,} rows: the scaled path counts each of the tau best rows "
            f"against every row exactly, {tau * rows:,} pairs, more than its bound of "
            f"{SCALED_TAU_PAIRS:,}; give a tau of at most {SCALED_TAU_PAIRS // rows:,}")
