"""Run the rank-set SQL of the models over a table of estimates, in a private DuckDB.

The SQL is rendered by dbt from the models' own macros and cached under a hash of them
(paperrank/ranksets/cache.py: rendered again whenever a macro changes), so the command starts
in a second instead of parsing the dbt project. The options reach it only as DuckDB parameters
($coverage, $draws, $seed, $tau), bound as numbers the command has checked: never as text.

DuckDB runs in memory under the project's memory limit and spills to a temporary folder that
this run creates and removes (paperrank/ranksets/limits.py). Running out of memory anyway, or
out of disk while spilling, is one line naming the limit and how to raise it.
"""

from __future__ import annotations

import csv
import json
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any, TextIO

from paperrank.core.errors import PaperrankError
from paperrank.core.spreadsheet import inert_cell
from paperrank.ranksets import cache as rendered
from paperrank.ranksets.limits import MEMORY_ENV, Limits
from paperrank.ranksets.render import RenderFailed
from paperrank.ranksets.table import Estimates

INPUT = "rank_set_input"
BATCH = 10_000


@cache
def compiled() -> Path:
    """The folder of the SQL rendered from the macros as they are now (rendered on first use)."""
    try:
        return rendered.compiled()
    except RenderFailed as error:
        raise PaperrankError(f"the rank-sets SQL could not be rendered from macros/rank_sets/: {error}") from None


@cache
def settings() -> dict[str, Any]:
    """The rank-set settings' defaults as the macros have them (rank_sets_settings)."""
    return dict(json.loads((compiled() / "settings.json").read_text(encoding="utf-8")))


def query(path: str, with_tau: bool) -> str:
    """The rendered SQL of one path (`exact` or `scaled`), with or without the tau-best set."""
    return (compiled() / f"{path}{'_tau' if with_tau else ''}.sql").read_text(encoding="utf-8")


@contextmanager
def session(limits: Limits) -> Iterator[Any]:
    """A private in-memory DuckDB under the limits, spilling to a folder of its own (removed after)."""
    import duckdb  # here, so that `paperrank rank-sets --help` and bad input answer at once

    spill = Path(tempfile.mkdtemp(prefix="paperrank-rank-sets-"))
    try:
        con = duckdb.connect(":memory:", config={
            "threads": limits.threads, "memory_limit": limits.memory_limit,
            "temp_directory": str(spill)})
        try:
            yield con
        finally:
            con.close()
    finally:
        shutil.rmtree(spill, ignore_errors=True)


def execute(con: Any, table: Estimates, path: str, options: dict[str, Any]) -> Any:
    """The rank sets of `table` by the rendered SQL of `path`: DuckDB's result, best first.
    Options coverage, draws, seed and tau (None: no tau-best set) are bound as parameters."""
    import pyarrow as pa

    parameters = {"coverage": float(options["coverage"]), "draws": int(options["draws"]),
                  "seed": int(options["seed"])}
    if options.get("tau") is not None:
        parameters["tau"] = int(options["tau"])
    con.register(INPUT, pa.table({
        "item_key": pa.array(table.ids, pa.string()),
        "item_number": pa.array(range(1, len(table) + 1), pa.int64()),
        "estimate": pa.array(table.estimates, pa.float64()),
        "se": pa.array(table.errors, pa.float64()),
    }))
    return con.execute(query(path, "tau" in parameters), parameters)


def run(table: Estimates, path: str, options: dict[str, Any], limits: Limits, out: TextIO) -> None:
    """Write the rank sets of `table` as CSV to `out` (best first); running out of memory (or of
    disk for DuckDB's spill files) is one line naming the limit and how to raise it."""
    import duckdb

    with session(limits) as con:
        try:
            write_csv(execute(con, table, path, options), out)
        except duckdb.OutOfMemoryException:
            raise PaperrankError(_out_of_memory(len(table), limits, "memory")) from None
        except duckdb.IOException as error:
            raise PaperrankError(_out_of_memory(len(table), limits, f"disk for its spill files "
                                                f"({str(error).splitlines()[0]})")) from None


def _out_of_memory(rows: int, limits: Limits, what: str) -> str:
    doubled = f"{2 * limits.memory_bytes / 10**6:.0f}MB"
    return (f"rank-sets ran out of {what} with {rows:,} rows under {MEMORY_ENV}={limits.memory_limit}; "
            f"raise {MEMORY_ENV} (e.g. {MEMORY_ENV}={doubled}) and run it again")


def write_csv(result: Any, handle: TextIO) -> None:
    """Plain CSV a spreadsheet reads as meant: TRUE/FALSE, ids that cannot run as formulas.
    Written in batches from DuckDB's result, so a million rows never sit in Python at once."""
    writer = csv.writer(handle, lineterminator="\n")
    writer.writerow([column[0] for column in result.description])
    while batch := result.fetchmany(BATCH):
        writer.writerows([_cell(value) for value in row] for row in batch)


def _cell(value: Any) -> Any:
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str):
        return inert_cell(value)  # a cell that would start a formula shows as text
    return value
