"""Load a seed CSV exactly as `dbt seed` does, to know it loads before dbt or an import relies on it.

dbt builds a seed's table from the seed's declared `column_types` and fills it with DuckDB's
COPY in the dialect the seeds' config declares (dbt_project.yml, `seeds:` +delimiter and
+meta.csv; macros/adapter_overrides/duckdb__load_csv_rows.sql). `load_problem` runs that same
COPY into an in-memory table of the same types, so a seed that passes here is a seed dbt loads,
and one that does not is named with its file, its line and DuckDB's reason before dbt starts
(the seed check) or before an import replaces the seed (paperrank.picks). The dialect and the
types are read from the same files dbt reads: one home for each.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

import duckdb
import yaml

from paperrank.core.seeds import PROJECT_FILE

_LINE = re.compile(r"CSV Error on Line: (\d+)")


@dataclass(frozen=True)
class Dialect:
    """How every seed is written and read: RFC 4180 with these characters, a header line."""

    delimiter: str
    quote: str
    escape: str

    def copy_options(self) -> str:
        """The COPY options dbt's seed load uses (detection off: nothing is guessed)."""
        return (f"format csv, header true, auto_detect false, delimiter {_literal(self.delimiter)}, "
                f"quote {_literal(self.quote)}, escape {_literal(self.escape)}")


def dialect(project_file: Path = PROJECT_FILE) -> Dialect:
    """The seeds' declared dialect; a RuntimeError when dbt_project.yml does not declare it
    (dbt's load would refuse too)."""
    project = yaml.safe_load(project_file.read_text(encoding="utf-8")) or {}
    seeds = ((project.get("seeds") or {}).get(project.get("name")) or {})
    declared = ((seeds.get("+meta") or {}).get("csv") or {})
    delimiter, quote, escape = seeds.get("+delimiter"), declared.get("quote"), declared.get("escape")
    if not all(isinstance(v, str) and len(v) == 1 for v in (delimiter, quote, escape)):
        raise RuntimeError(f"{project_file}: seeds: must declare +delimiter and +meta.csv's quote "
                           "and escape, one character each")
    return Dialect(str(delimiter), str(quote), str(escape))


def declared_types(folder: Path) -> dict[str, dict[str, str]]:
    """seed name -> {column: type} from the `column_types` of the YAML files in `folder`."""
    types: dict[str, dict[str, str]] = {}
    for path in sorted([*folder.glob("*.yml"), *folder.glob("*.yaml")]):
        document = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for seed in document.get("seeds") or []:
            column_types = (seed.get("config") or {}).get("column_types") or {}
            types[seed["name"]] = {str(k): str(v).lower() for k, v in column_types.items()}
    return types


def load_problem(path: Path, types: dict[str, str], shown_as: Path | None = None,
                 seed_dialect: Dialect | None = None,
                 con: duckdb.DuckDBPyConnection | None = None) -> str | None:
    """Why dbt could not load the seed at `path` (`<file> line N: reason`, the file named as
    `shown_as`), or None when it loads. Columns not declared load as text, as far as the
    check goes (dbt would guess their type). `con`: an in-memory connection to load into, for a
    caller that checks several seeds (opening one costs more than loading a small seed)."""
    chosen = seed_dialect or dialect()
    name = shown_as or path
    header = _header(path, chosen)
    if not header:
        return f"{name} line 1: no header line"
    columns = ", ".join(f"{_identifier(column)} {types.get(column, 'varchar')}" for column in header)
    own = con is None
    if con is None:
        con = duckdb.connect()
    try:
        con.execute(f"create or replace temp table seed ({columns})")
        con.execute(f"copy seed from {_literal(str(path))} ({chosen.copy_options()})")
    except duckdb.Error as error:
        text = str(error)
        found = _LINE.search(text)
        line = found.group(1) if found else "?"
        reason = text.split("\n", 1)[0] if not found else _reason(text)
        return f"{name} line {line}: dbt's seed load fails: {reason}"
    finally:
        if own:
            con.close()
    return None


def _header(path: Path, chosen: Dialect) -> list[str]:
    """The header's column names, read in the declared dialect (its first record only)."""
    with path.open(encoding="utf-8-sig", newline="") as handle:
        first = handle.readline()
        while first.count(chosen.quote) % 2:  # a quoted header name spanning lines
            more = handle.readline()
            if not more:
                break
            first += more
    rows = list(csv.reader(io.StringIO(first), delimiter=chosen.delimiter, quotechar=chosen.quote))
    return rows[0] if rows else []


def _reason(text: str) -> str:
    """DuckDB's reason in one line: the paragraph after the quoted line, without the advice
    and the options that follow it."""
    paragraphs = [p.strip() for p in text.split("\n\n") if p.strip()]
    converting = [line for line in paragraphs[0].splitlines() if line.startswith("Error when converting")]
    if converting:  # a conversion error's reason ends the paragraph of the quoted line
        return converting[-1]
    for paragraph in paragraphs[1:]:
        if not paragraph.startswith(("Possible fixes", "file =")):
            return " ".join(paragraph.split())
    return paragraphs[0].splitlines()[0]


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _identifier(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'
