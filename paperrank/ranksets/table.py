"""Read and check the estimates table of `paperrank rank-sets`.

A wrong table must never give a plausible answer: every problem is one line naming the file,
the CSV line and the column (a missing column, an empty or repeated id, a non-numeric value,
a standard error that is missing or not positive).
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from paperrank.core.errors import PaperrankError


def read_estimates(path: Path, id_column: str, estimate_column: str, se_column: str) -> pd.DataFrame:
    """The table as columns item_key (text), item_number (1..n, file order), estimate, se."""
    if not path.is_file():
        raise PaperrankError(f"{path}: no such file")
    try:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as error:
        raise PaperrankError(f"{path}: not a readable CSV ({str(error).splitlines()[0]})") from None
    for column in (id_column, estimate_column, se_column):
        if column not in frame.columns:
            raise PaperrankError(
                f"{path}: no column {column!r} (columns: {', '.join(map(repr, frame.columns))})")
    if frame.empty:
        raise PaperrankError(f"{path}: no rows")
    seen: dict[str, int] = {}
    estimates, errors = [], []
    for index, row in enumerate(frame.itertuples(index=False), start=2):  # line 1 is the header
        values = dict(zip(frame.columns, row, strict=False))
        key = values[id_column].strip()
        where = f"{path} line {index} ({id_column} {key!r})"
        if not key:
            raise PaperrankError(f"{path} line {index}: {id_column} is empty")
        if key in seen:
            raise PaperrankError(f"{where}: {id_column} repeats line {seen[key]}")
        seen[key] = index
        estimate = _number(values[estimate_column], where, estimate_column)
        se = _number(values[se_column], where, se_column)
        if se <= 0:
            raise PaperrankError(f"{where}: {se_column} = {values[se_column]!r} must be > 0")
        estimates.append(estimate)
        errors.append(se)
    return pd.DataFrame({
        "item_key": list(seen),
        "item_number": range(1, len(seen) + 1),
        "estimate": estimates,
        "se": errors,
    })


def _number(text: str, where: str, column: str) -> float:
    """A finite number, or a one-line error naming the row and the column."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        shown = "missing" if not text.strip() else f"{text!r} is not a finite number"
        raise PaperrankError(f"{where}: {column} {shown}")
    return value
