"""`paperrank rank-sets FILE --id COL --estimate COL --se COL`: confidence sets for ranks.

Marginal and simultaneous confidence sets for the rank of every row (rank 1 = the largest
estimate) and, with --tau, the tau-best set, by the method of Mogstad, Romano, Shaikh and
Wilhelm (2024) as csranks computes it (step-down, parametric bootstrap with B draws); see
docs/rank-confidence-sets.md. The estimates are taken as independent and normal with the given
standard errors.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import click

from paperrank.core.errors import PaperrankError
from paperrank.core.spreadsheet import inert_cell
from paperrank.ranksets.sql import compiled_query, run_query
from paperrank.ranksets.table import read_estimates

if TYPE_CHECKING:
    import pandas as pd

COLUMNS = ["id", "estimate", "se", "rank", "marginal_lower", "marginal_upper",
           "simultaneous_lower", "simultaneous_upper"]


@click.command("rank-sets")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--id", "id_column", required=True, help="column naming each row")
@click.option("--estimate", "estimate_column", required=True, help="column of the estimates")
@click.option("--se", "se_column", required=True, help="column of their standard errors (> 0)")
@click.option("--coverage", type=float, default=0.95, show_default=True,
              help="nominal coverage of every set")
@click.option("--tau", type=int, default=None, help="also the tau-best set (column tau_best)")
@click.option("--draws", type=int, default=1000, show_default=True, help="bootstrap draws B")
@click.option("--seed", type=int, default=2026, show_default=True, help="seed of the draws")
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="write the CSV here (default: standard output)")
def rank_sets(file: Path, id_column: str, estimate_column: str, se_column: str, coverage: float,
              tau: int | None, draws: int, seed: int, out: Path | None) -> None:
    """Confidence sets for the ranks of the rows of FILE (a CSV), largest estimate first."""
    if not 0 < coverage < 1:
        raise PaperrankError(f"--coverage {coverage} must be strictly between 0 and 1")
    if not 10 <= draws <= 100000:
        raise PaperrankError(f"--draws {draws} must be from 10 to 100000")
    if not 0 <= seed <= 2**63 - 1:
        raise PaperrankError(f"--seed {seed} must be from 0 to 2^63 - 1")
    estimates = read_estimates(file, id_column, estimate_column, se_column)
    if tau is not None and not 1 <= tau <= len(estimates):
        raise PaperrankError(f"--tau {tau} must be from 1 to the number of rows ({len(estimates)})")
    options = {"coverage": coverage, "draws": draws, "seed": seed, "tau": tau}
    result = run_query(compiled_query(options), estimates)
    columns = COLUMNS + (["tau_best"] if tau is not None else [])
    if out is None:
        write_csv(result[columns], sys.stdout)
    else:
        with out.open("w", newline="", encoding="utf-8") as handle:
            write_csv(result[columns], handle)


def write_csv(frame: pd.DataFrame, handle: TextIO) -> None:
    """Plain CSV a spreadsheet reads as meant: TRUE/FALSE, ids that cannot run as formulas."""
    writer = csv.writer(handle, lineterminator="\n")
    writer.writerow(list(frame.columns))
    for row in frame.itertuples(index=False):
        cells = []
        for value in row:
            if isinstance(value, (bool,)) or type(value).__name__ == "bool_":
                cells.append("TRUE" if value else "FALSE")
            elif isinstance(value, str):
                cells.append(inert_cell(value))
            else:
                cells.append(value)
        writer.writerow(cells)
