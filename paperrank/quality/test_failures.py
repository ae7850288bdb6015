"""`paperrank quality test-failures`: show the rows behind every dbt test that failed.

dbt reports a failing data test as "Got 2 results, configured to fail if != 0" and leaves the
reader to run the test's SQL.  This reads the last run's artifacts (run_results.json and
manifest.json in dbt's target folder) and, for each failed or warned test, prints the
offending rows: from the table dbt stored them in (`store_failures`, set for the seeds'
tests) or else by running the test's compiled SQL on the warehouse, read-only.  For a test
on a seed it also names the CSV lines the rows come from, e.g.
`seeds/expert_selections.csv lines 2, 5`.  Run it after a failed `dbt build` (make build
does); it exits 1 when the last run had a failing test, else 0.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import duckdb

from paperrank.core.errors import CheckFailed, PaperrankError
from paperrank.core.warehouse import db_path

SHOWN_ROWS = 10
# dbt's built-in unique and accepted_values tests name the tested column like this
TESTED_VALUE_COLUMNS = {"unique_field", "value_field"}


class DbtTestsFailed(CheckFailed):
    """dbt data tests failed in the last run (their offending rows are printed)."""


def explain_last_run(target_path: Path) -> None:
    """Print the rows behind each failed test of the last dbt run in `target_path`; raise
    DbtTestsFailed when there was one."""
    failed = explain_failures(target_path)
    if failed:
        raise DbtTestsFailed(f"{failed} dbt test(s) failed in the last run (rows above)")


def explain_failures(target_path: Path) -> int:
    """Print every unmet test of the last run with its offending rows; return how many failed
    (warnings are printed but not counted)."""
    results_file = target_path / "run_results.json"
    if not results_file.exists():
        raise PaperrankError(f"{results_file} not found: run dbt build first")
    try:
        run_results = json.loads(results_file.read_text(encoding="utf-8"))
        results = run_results["results"]
    except (ValueError, KeyError, TypeError) as error:
        raise PaperrankError(f"{results_file} is not dbt's run_results.json ({error}); run dbt "
                             "build again") from None
    generated = run_results.get("metadata", {}).get("generated_at", "an unknown time")
    nodes = _manifest_nodes(target_path / "manifest.json")
    unmet = [r for r in results
             if r["unique_id"].startswith("test.") and r["status"] in ("fail", "warn", "error")]
    if not unmet:
        print(f"no failing dbt test in {results_file} (dbt run of {generated})")
        return 0
    print(f"dbt tests that failed in the run of {generated} ({results_file}):")
    con = duckdb.connect(str(db_path()), read_only=True) if db_path().exists() else None
    try:
        for result in unmet:
            print("\n".join(explain(result, nodes.get(result["unique_id"], {}), nodes, con)))
    finally:
        if con is not None:
            con.close()
    return sum(r["status"] in ("fail", "error") for r in unmet)


def _manifest_nodes(path: Path) -> dict[str, dict[str, Any]]:
    if not path.exists():
        return {}
    try:
        nodes: dict[str, dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["nodes"]
    except (ValueError, KeyError, TypeError) as error:
        raise PaperrankError(f"{path} is not dbt's manifest.json ({error}); run dbt build "
                             "again") from None
    return nodes


def explain(result: dict[str, Any], node: dict[str, Any], nodes: dict[str, dict[str, Any]],
            con: duckdb.DuckDBPyConnection | None) -> list[str]:
    """The lines that describe one unmet test: what it tests, and its offending rows."""
    name = node.get("name") or result["unique_id"].split(".")[-2]
    tested = nodes.get(node.get("attached_node") or "", {})
    on = ""
    if tested:
        on = f" on {tested['resource_type']} {tested['name']} ({tested['original_file_path']})"
    level = {"fail": "FAILED", "warn": "WARNING", "error": "ERROR"}[result["status"]]
    lines = [f"{level}  dbt test {name}{on}"]
    if result["status"] == "error" or con is None:
        return lines + [f"    {result.get('message') or 'no message'}"]
    columns, rows, total = _offending_rows(result, node, con)
    lines.append(f"    {total} offending row(s)"
                 + (f", first {len(rows)}:" if total > len(rows) else ":"))
    csv_lines = _seed_lines(tested) if tested.get("resource_type") == "seed" else None
    for row in rows:
        text = ", ".join(f"{c}={_show(v)}" for c, v in zip(columns, row, strict=True))
        if csv_lines is not None:
            named = {str(node.get("column_name")) if c in TESTED_VALUE_COLUMNS else c: v
                     for c, v in zip(columns, row, strict=True)}
            where = _matching_lines(named, *csv_lines)
            if where:
                label = "line" if len(where) == 1 else "lines"
                text += f"   ({tested['original_file_path']} {label} {', '.join(map(str, where))})"
        lines.append(f"    {text}")
    if result.get("relation_name"):
        lines.append(f"    all rows: select * from {result['relation_name']}")
    return lines


def _offending_rows(result: dict[str, Any], node: dict[str, Any],
                    con: duckdb.DuckDBPyConnection) -> tuple[list[str], list[tuple], int]:
    """The test's failing rows: its stored-failures table if any, else its compiled SQL."""
    relation = result.get("relation_name")
    source = relation or f"({result.get('compiled_code') or node.get('compiled_code')})"
    query = f"select * from {source} as offending"
    total = con.execute(f"select count(*) from ({query})").fetchall()[0][0]
    cursor = con.execute(f"{query} limit {SHOWN_ROWS}")
    columns = [d[0] for d in cursor.description]
    return columns, cursor.fetchall(), total


def _seed_lines(seed: dict[str, Any]) -> tuple[list[str], list[tuple[int, list[str]]]] | None:
    """The seed CSV's header and its (line number, fields) records, or None if unreadable."""
    path = Path(seed.get("root_path", ".")) / seed["original_file_path"]
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:
            reader = csv.reader(handle)
            header = next(reader)
            records, start = [], reader.line_num + 1
            for fields in reader:
                if fields:
                    records.append((start, fields))
                start = reader.line_num + 1
    except (OSError, StopIteration, csv.Error):
        return None
    return header, records


def _matching_lines(row: dict[str, Any], header: list[str],
                    records: list[tuple[int, list[str]]]) -> list[int]:
    """CSV lines whose cells equal the failing row in every column the two share."""
    shared = [(header.index(c), v) for c, v in row.items() if c in header]
    if not shared:
        return []
    return [line for line, fields in records
            if len(fields) == len(header)
            and all(_same(fields[i], value) for i, value in shared)]


def _same(cell: str, value: Any) -> bool:
    """Whether a CSV cell holds `value` as dbt loaded it (empty cell = null)."""
    if value is None:
        return cell.strip() == ""
    if isinstance(value, bool):
        return cell.strip().lower() == str(value).lower()
    if isinstance(value, (int, float)):
        try:
            return float(cell) == float(value)
        except ValueError:
            return False
    return cell == str(value)


def _show(value: Any) -> str:
    return "null" if value is None else repr(value) if isinstance(value, str) else str(value)
