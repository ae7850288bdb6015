"""`paperrank quality seeds`: check the seed CSVs before `dbt seed` / `dbt build` loads them.

dbt reads a seed with agate's CSV sniffer: a row with a missing or extra field, an unclosed
quote or a value its declared type cannot hold ends in a long traceback that names neither
the line nor the value.  This reads every seed the way a person edits it, as numbered lines,
and prints one line per problem (`seeds/x.csv line 5: 3 fields, expected 4`), so the fix is
obvious.  The declared types are the `column_types` of the seeds' YAML, the same ones dbt uses.
Exit 0 when every seed is well formed, 1 when one is not.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import duckdb

from paperrank.core.csv_fields import oversized, whole_fields
from paperrank.core.errors import CheckFailed
from paperrank.core.seed_load import declared_types, dialect, load_problem

DEFAULT_SEEDS = Path("seeds")
BOOLEANS = {"true", "false"}  # what the seeds use; dbt would also take other spellings
INTEGER_TYPES = {"integer", "int", "bigint", "smallint", "tinyint", "hugeint"}
NUMBER_TYPES = {"double", "float", "real", "decimal", "numeric"}


class SeedCheckFailed(CheckFailed):
    """A seed CSV is malformed (each problem printed as one line naming file and line)."""


def check_seeds(seeds_dir: Path) -> None:
    """Check every seed CSV of `seeds_dir`; print one line per problem and a verdict, and
    raise SeedCheckFailed when there is a problem."""
    problems = check_folder(seeds_dir)
    for problem in problems:
        print(problem)
    seeds = sorted(seeds_dir.glob("*.csv"))
    if problems:
        print(f"seed check FAILED: {len(problems)} problem(s) in {len(seeds)} seed files; "
              "fix them before dbt seed")
        raise SeedCheckFailed(f"the seed check failed: {len(problems)} problem(s) (above)")
    print(f"seed check passed: {len(seeds)} seed files in {seeds_dir}")


def check_folder(folder: Path) -> list[str]:
    """Every problem of every seed CSV in `folder`, one readable line each: as a person reads it
    (fields, quotes, types), then, for a seed that reads well, as dbt loads it
    (paperrank.core.seed_load), so a seed dbt could not load is named with its line too."""
    types = declared_types(folder)
    problems: list[str] = []
    seed_dialect, con = dialect(), duckdb.connect()  # one of each for every seed of the folder
    try:
        for path in sorted(folder.glob("*.csv")):
            found = check_file(path, types.get(path.stem, {}))
            if not found:  # well formed as a person reads it: does it load as dbt loads it?
                loads = load_problem(path, types.get(path.stem, {}), seed_dialect=seed_dialect,
                                     con=con)
                found = [loads] if loads else []
            problems += found
    finally:
        con.close()
    return problems


def check_file(path: Path, types: dict[str, str]) -> list[str]:
    """The problems of one CSV: encoding, header, field counts, quoting and declared types."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        line = path.read_bytes()[: error.start].count(b"\n") + 1
        return [f"{path} line {line}: not UTF-8 text (byte {error.object[error.start]:#04x})"]
    rows = _records(path, text)
    if isinstance(rows, str):
        return [rows]
    if not rows:
        return [f"{path}: empty file, expected a header line"]
    (_, header), body = rows[0], rows[1:]
    problems = _header_problems(path, header, types)
    if problems:
        return problems
    for line, fields in body:
        too_long = oversized(fields, header)
        if too_long is not None:  # dbt's seed reader stops at it
            problems.append(f"{path} line {line}: {too_long}")
            continue
        if len(fields) != len(header):
            problems.append(f"{path} line {line}: {len(fields)} fields, expected {len(header)} "
                            f"({', '.join(header)})")
            continue
        for column, value in zip(header, fields, strict=True):
            problem = _type_problem(value, types.get(column))
            if problem:
                problems.append(f"{path} line {line}: {column} {value!r} {problem}")
    return problems


def _records(path: Path, text: str) -> list[tuple[int, list[str]]] | str:
    """(first line number, fields) of every non-blank record, or the one problem that stops
    reading (an unclosed quote swallows the rest of the file)."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    records: list[tuple[int, list[str]]] = []
    start = 1
    try:
        with whole_fields(len(text)):  # a long field is its line's problem (check_file)
            for fields in reader:
                if fields:
                    records.append((start, fields))
                start = reader.line_num + 1
    except csv.Error as error:
        return f"{path} line {start}: {error} (an unclosed or misplaced double quote?)"
    return records


def _header_problems(path: Path, header: list[str], types: dict[str, str]) -> list[str]:
    problems = []
    blank = [str(i + 1) for i, name in enumerate(header) if not name.strip()]
    if blank:
        problems.append(f"{path} line 1: header field(s) {', '.join(blank)} have no name")
    seen: set[str] = set()
    for name in header:
        if name in seen:
            problems.append(f"{path} line 1: column {name!r} appears twice in the header")
        seen.add(name)
    missing = [name for name in types if name not in seen]
    if missing:
        problems.append(f"{path} line 1: header lacks {', '.join(missing)}, declared in the "
                        f"seed's column_types (header: {', '.join(header)})")
    return problems


def _type_problem(value: str, declared: str | None) -> str | None:
    """Why `value` cannot be read as the declared type, or None.  Empty means null."""
    if not declared or value == "":
        return None
    if declared.startswith("bool"):
        return None if value.strip().lower() in BOOLEANS else "is not a boolean (true or false)"
    try:
        if declared in INTEGER_TYPES:
            int(value)
        elif declared.split("(")[0] in NUMBER_TYPES:
            float(value)
    except ValueError:
        return f"is not a number ({declared})"
    return None
