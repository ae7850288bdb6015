"""`paperrank rank-sets FILE --id COL --estimate COL --se COL`: confidence sets for ranks.

Marginal and simultaneous confidence sets for the rank of every row (rank 1 = the largest
estimate) and, with --tau, the tau-best set, by the method of Mogstad, Romano, Shaikh and
Wilhelm (2024) as csranks computes it (step-down, parametric bootstrap with B draws); see
docs/rank-confidence-sets.md. The estimates are taken as independent and normal with the given
standard errors. The SQL is the models' (paperrank/ranksets/sql.py); the bounds on rows and
memory and the choice of path are paperrank/ranksets/limits.py.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from paperrank.core.errors import PaperrankError
from paperrank.ranksets import limits as bounds
from paperrank.ranksets.sql import run, settings
from paperrank.ranksets.table import SAFE_ERRORS, SAFE_ESTIMATES, RowsExceeded, read_estimates


@click.command("rank-sets")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--id", "id_column", required=True, help="column naming each row")
@click.option("--estimate", "estimate_column", required=True,
              help=f"column of the estimates ({SAFE_ESTIMATES})")
@click.option("--se", "se_column", required=True,
              help=f"column of their standard errors ({SAFE_ERRORS})")
@click.option("--coverage", type=float, default=0.95, show_default=True,
              help="nominal coverage of every set")
@click.option("--tau", type=int, default=None, help="also the tau-best set (column tau_best)")
@click.option("--draws", type=int, default=1000, show_default=True, help="bootstrap draws B")
@click.option("--seed", type=int, default=2026, show_default=True, help="seed of the draws")
@click.option("--max-rows", type=int, default=None,
              help=f"refuse a file of more rows, before any work [env {bounds.ROWS_ENV}; default: one "
                   f"row per {bounds.BYTES_PER_ROW:,} bytes of {bounds.MEMORY_ENV} (1GB: 1,000,000)]")
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="write the CSV here (default: standard output)")
def rank_sets(file: Path, id_column: str, estimate_column: str, se_column: str, coverage: float,
              tau: int | None, draws: int, seed: int, max_rows: int | None, out: Path | None) -> None:
    """Confidence sets for the ranks of the rows of FILE (a CSV), largest estimate first.

    DuckDB runs under PAPERRANK_MEMORY_LIMIT (1GB) and PAPERRANK_DUCKDB_THREADS (2). A table
    whose exact computation (rows x draws bootstrap rows) would not fit the models' row budget
    takes the models' scaled path: the same coverage, sets at worst a little wider.
    """
    if not 0 < coverage < 1:
        raise PaperrankError(f"--coverage {coverage} must be strictly between 0 and 1")
    if not 10 <= draws <= 100000:
        raise PaperrankError(f"--draws {draws} must be from 10 to 100000")
    if not 0 <= seed <= 2**63 - 1:
        raise PaperrankError(f"--seed {seed} must be from 0 to 2^63 - 1")
    if out is not None and not out.parent.is_dir():
        raise PaperrankError(f"--out {out}: no folder {out.parent} to write it in")
    limits = bounds.resolve(max_rows)
    try:
        table = read_estimates(file, id_column, estimate_column, se_column, limits.max_rows)
    except RowsExceeded as error:
        raise PaperrankError(limits.rows_refusal(error.path)) from None
    if tau is not None and not 1 <= tau <= len(table):
        raise PaperrankError(f"--tau {tau} must be from 1 to the number of rows ({len(table)})")
    path = bounds.choose_path(len(table), draws, settings())
    bounds.check_tau_cost(path, len(table), tau)
    options = {"coverage": coverage, "draws": draws, "seed": seed, "tau": tau}
    if out is None:
        run(table, path, options, limits, sys.stdout)
        return
    partial = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    try:
        with partial.open("w", newline="", encoding="utf-8") as handle:
            run(table, path, options, limits, handle)
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)
