"""Spark as the second engine: how the raw layer gets in and how readers get the marts out.

The loaders write the raw layer to DuckDB only. For a Spark build it is exported to Parquet
(one folder per raw table under the Spark warehouse) and registered as Spark tables raw.<table>
by `register_raw_tables` (a dbt operation on the spark target, so the session's settings live in
profiles.yml alone). The tables Spark builds are Parquet too, `<warehouse>/<schema>.db/<table>/`,
so readers such as the quality gates open them with DuckDB without starting a Spark session.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

import duckdb

from paperrank.core import config
from paperrank.core.errors import PaperrankError
from paperrank.core.warehouse import connect

RAW_EXPORT = "raw_export"
# paperrank.related's results, which dbt reads as the `derived` source (docs/related-papers.md)
DERIVED_EXPORT = "derived_export"
JAVA_HINT = "install Java 17 or newer (Debian: apt-get install openjdk-17-jre-headless)"


def warehouse_dir() -> Path:
    """The Spark warehouse folder: `PAPERRANK_SPARK_WAREHOUSE`, as profiles.yml reads it."""
    return config.spark_warehouse()


def java_problem() -> str | None:
    """Why a local Spark session cannot start here (no Java 17+), or None when it can."""
    java = shutil.which("java")
    if java is None:
        return f"no java on PATH; {JAVA_HINT}"
    result = subprocess.run([java, "-version"], capture_output=True, text=True, check=False)
    found = re.search(r'version "(\d+)', result.stderr + result.stdout)
    if found is None or int(found.group(1)) < 17:
        found_text = (result.stderr or result.stdout).strip()[:80]
        return f"{java} is not Java 17 or newer ({found_text}); {JAVA_HINT}"
    return None


def export_raw(db: Path, folder: Path, schema: str = "raw") -> dict[str, int]:
    """Write every table of the DuckDB schema `schema` (raw, or derived) to
    `<folder>/<table>/part-0.parquet`.

    Each table's folder is emptied first, so a table that shrank leaves no stale file behind.
    Returns the rows written per table. The warehouse is opened read-only and closed again.
    """
    if not Path(db).exists():
        raise PaperrankError(f"no warehouse at {db} (PAPERRANK_DB); load data first")
    con = connect(db, read_only=True)
    try:
        tables = [row[0] for row in con.execute(
            "select table_name from information_schema.tables "
            "where table_schema = ? and table_type = 'BASE TABLE' order by table_name", [schema]
        ).fetchall()]
        if not tables and schema == "raw":
            raise PaperrankError(f"warehouse {db} has no raw tables; load data first")
        rows = {}
        for table in tables:
            target = folder / table
            if target.exists():
                shutil.rmtree(target)
            target.mkdir(parents=True)
            path = str((target / "part-0.parquet").resolve()).replace("'", "''")
            con.execute(f'copy "{schema}"."{table}" to \'{path}\' (format parquet)')
            rows[table] = con.execute(f'select count(*) from "{schema}"."{table}"').fetchall()[0][0]
        return rows
    finally:
        con.close()


def register_raw(folder: Path, tables: list[str], run_dbt: Callable[[list[str]], None],
                 dbt_args: Sequence[str] = (), schema: str = "raw") -> None:
    """Register the exported folders as Spark tables <schema>.<table> (dbt operation, spark
    target).

    `dbt_args` go to dbt as well (e.g. --project-dir, --target-path).
    """
    args = {"location": str(folder.resolve()), "tables": tables, "schema": schema}
    run_dbt(["run-operation", "register_raw_tables", "--target", "spark",
             "--args", json.dumps(args), *dbt_args])


def spark_tables(warehouse: Path, schemas: Sequence[str]) -> list[tuple[str, str, str]]:
    """(schema, table, Parquet glob) of every table Spark built in `schemas` (views have no files)."""
    found = []
    for schema in schemas:
        root = warehouse / f"{schema}.db"
        for table in sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []:
            if re.fullmatch(r"[a-z_][a-z0-9_]*", table.name) and any(table.glob("*.parquet")):
                found.append((schema, table.name, str(table.resolve() / "*.parquet")))
    return found


def marts_connection(warehouse: Path, schemas: tuple[str, ...] = ("marts",)) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection whose views `<schema>.<table>` read Spark's Parquet tables.

    Queries written for the DuckDB warehouse run unchanged on a Spark build's output.
    """
    if not warehouse.is_dir():
        raise PaperrankError(f"no Spark warehouse at {warehouse} (PAPERRANK_SPARK_WAREHOUSE); "
                             "build on Spark first (make build ENGINE=spark)")
    con = duckdb.connect()
    for schema in schemas:
        con.execute(f'create schema "{schema}"')
    for schema, table, files in spark_tables(warehouse, schemas):
        quoted = files.replace("'", "''")
        con.execute(f'create view "{schema}"."{table}" as select * from read_parquet(\'{quoted}\')')
    return con
