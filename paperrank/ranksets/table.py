"""Read and check the estimates table of `paperrank rank-sets`.

A wrong table must never give a plausible answer: every problem is one line naming the file,
the CSV line and, for a value, the row's id and the column. The file is read record by record
with Python's csv module in strict mode (not pandas, which guesses: a row with one field too
many made its first field the index and shifted every column), so a malformed CSV is refused
where it breaks: a record whose field count differs from the header's, an unclosed quote, a
NUL byte, text after a closing quote, a header with an empty or repeated name, text that is not
UTF-8, a field longer than Python's CSV field limit (named as such, paperrank.core.csv_fields).
Reading stops at the first record past the row bound (`max_rows`), before any work.

Numbers must be plain decimals (ASCII digits, optional sign, point and exponent: not "1_000",
"inf", "nan" or other scripts' digits, which Python's float() takes) and lie in the range the
arithmetic is exact enough in (`ESTIMATE_LIMIT`, `SE_LOWER`, `SE_UPPER`): the rank sets square
the standard errors, divide differences of estimates by them and compare the quotients with
critical values below about 12, so a finite se of 1e308 (whose square is infinite) would make
every difference 0 and every set [1, n].
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from paperrank.core.csv_fields import oversized, whole_fields
from paperrank.core.errors import PaperrankError

# The safe range, in float64 (docs/rank-confidence-sets.md, "paperrank rank-sets"):
# - se in [1e-100, 1e100]: se^2 and se_i^2 + se_k^2 stay normal numbers (1e-200..2e200: no
#   underflow, no overflow, full precision), and so do se * u for the draws (|u| < 9);
# - |estimate| <= 1e100, and 0 or at least 1e-100: a difference of two estimates is then 0 or
#   at least about 1e-116 (one unit in the last place at 1e-100), so the scaled path's bin
#   width (the estimates' range over n - 1, n <= 1e7) is a normal number, and a difference over
#   a pair's sd is at most 2e100 / 1.4e-100 = 1.4e200, far below the 1e300 the SQL keeps for a
#   certain difference and the 1e308 it starts the critical values from.
ESTIMATE_LIMIT = 1e100
ESTIMATE_SMALLEST = 1e-100
SE_LOWER = 1e-100
SE_UPPER = 1e100
SAFE_ESTIMATES = "0, or 1e-100 to 1e100 in magnitude"
SAFE_ERRORS = "1e-100 to 1e100"
RESCALE = "rescale the estimates and standard errors together: the ranks do not change"
DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


@dataclass
class Estimates:
    """The table as the SQL reads it: ids (text), estimates and standard errors, in file order."""

    ids: list[str] = field(default_factory=list)
    estimates: list[float] = field(default_factory=list)
    errors: list[float] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.ids)


def read_estimates(path: Path, id_column: str, estimate_column: str, se_column: str,
                   max_rows: int) -> Estimates:
    """The checked table, or a PaperrankError naming the file, the line and the problem."""
    names = {"--id": id_column, "--estimate": estimate_column, "--se": se_column}
    options = list(names)
    for i, first in enumerate(options):
        for second in options[i + 1:]:
            if names[first] == names[second]:
                raise PaperrankError(f"{first} and {second} name the same column {names[first]!r}")
    if not path.is_file():
        raise PaperrankError(f"{path}: no such file" + (" (a folder)" if path.is_dir() else ""))
    try:
        handle = path.open(encoding="utf-8-sig", newline="")
    except OSError as error:
        raise PaperrankError(f"{path}: cannot be read ({error.strerror})") from None
    with handle:
        records = _records(path, handle)
        header_line, header = next(records, (1, []))
        if not header:
            raise PaperrankError(f"{path}: empty, no header line")
        columns = _columns(path, header_line, header, names)
        seen: dict[str, int] = {}
        table = Estimates()
        for line, record in records:
            if len(record) != len(header):
                raise PaperrankError(
                    f"{path} line {line}: {len(record)} fields, the header has {len(header)} "
                    f"(a comma too many or too few, or an unquoted comma in a value)")
            if len(table) == max_rows:
                raise RowsExceeded(path, max_rows)
            key = record[columns[id_column]].strip()
            if not key:
                raise PaperrankError(f"{path} line {line}: {id_column} is empty")
            where = f"{path} line {line} ({id_column} {key!r})"
            if key in seen:
                raise PaperrankError(f"{where}: {id_column} repeats line {seen[key]}")
            seen[key] = line
            estimate = _number(record[columns[estimate_column]], where, estimate_column)
            se = _number(record[columns[se_column]], where, se_column)
            _check_range(estimate, record[columns[estimate_column]], where, estimate_column)
            _check_se(se, record[columns[se_column]], where, se_column)
            table.ids.append(key)
            table.estimates.append(estimate)
            table.errors.append(se)
    if not table.ids:
        raise PaperrankError(f"{path}: no rows")
    return table


class RowsExceeded(PaperrankError):
    """More records than the row bound: refused before any work (the caller says how to raise it)."""

    def __init__(self, path: Path, max_rows: int) -> None:
        super().__init__(f"{path} has more than {max_rows:,} rows")
        self.path = path
        self.max_rows = max_rows


def _records(path: Path, handle: object) -> Iterator[tuple[int, list[str]]]:
    """(line where the record starts, fields) for each non-blank record; a malformed one is a
    PaperrankError naming its line."""
    reader = csv.reader(handle, strict=True)  # type: ignore[arg-type]
    line = 1
    while True:
        try:
            with whole_fields(path.stat().st_size):  # a long field: its line and why (below)
                record = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise PaperrankError(f"{path} line {line}: not valid CSV ({error}; "
                                 "an unclosed quote runs to the end of the file)") from None
        except UnicodeDecodeError:
            raise PaperrankError(f"{path} line {reader.line_num + 1}: not UTF-8 text") from None
        start, line = line, reader.line_num + 1
        if not record:  # a blank line
            continue
        if any("\x00" in value for value in record):
            raise PaperrankError(f"{path} line {start}: a NUL byte (a binary file, or not UTF-8 text)")
        too_long = oversized(record)
        if too_long is not None:
            raise PaperrankError(f"{path} line {start}: {too_long}")
        yield start, record


def _columns(path: Path, line: int, header: list[str], names: dict[str, str]) -> dict[str, int]:
    """The index of each named column; an empty or repeated header name is refused."""
    positions: dict[str, int] = {}
    for index, name in enumerate(header):
        if not name.strip():
            raise PaperrankError(f"{path} line {line}: the header's column {index + 1} has no name")
        if name in positions:
            raise PaperrankError(f"{path} line {line}: the header names {name!r} twice "
                                 f"(columns {positions[name] + 1} and {index + 1})")
        positions[name] = index
    for option, column in names.items():
        if column not in positions:
            raise PaperrankError(f"{path}: no column {column!r} ({option}; columns: "
                                 f"{', '.join(map(repr, header))})")
    return positions


def _number(text: str, where: str, column: str) -> float:
    """A plain decimal number, or a one-line error naming the row and the column."""
    value = text.strip()
    if not value:
        raise PaperrankError(f"{where}: {column} missing")
    if not DECIMAL.fullmatch(value):
        raise PaperrankError(f"{where}: {column} {text!r} is not a finite number")
    number = float(value)
    if number != number or number in (float("inf"), float("-inf")):
        raise PaperrankError(f"{where}: {column} {text!r} is not a finite number")
    return number


def _check_range(estimate: float, text: str, where: str, column: str) -> None:
    """An estimate in the safe range of the module's docstring (one that float64 rounds to 0,
    such as 1e-400, is outside it, not read as 0)."""
    if (estimate == 0 and not _zero(text)) or abs(estimate) > ESTIMATE_LIMIT or 0 < abs(estimate) < ESTIMATE_SMALLEST:
        raise PaperrankError(f"{where}: {column} = {text.strip()!r} is outside the safe range "
                             f"({SAFE_ESTIMATES}; {RESCALE})")


def _check_se(se: float, text: str, where: str, column: str) -> None:
    """A standard error > 0 and in the safe range of the module's docstring."""
    if text.strip().startswith("-") or _zero(text):
        raise PaperrankError(f"{where}: {column} = {text!r} must be > 0")
    if not SE_LOWER <= se <= SE_UPPER:
        raise PaperrankError(f"{where}: {column} = {text.strip()!r} is outside the safe range "
                             f"{SAFE_ERRORS} ({RESCALE})")


def _zero(text: str) -> bool:
    """Whether a decimal's digits before its exponent are all 0 (1e-400 is not zero, though
    float64 rounds it to 0)."""
    return re.search(r"[1-9]", re.split(r"[eE]", text)[0]) is None
