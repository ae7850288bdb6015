"""Export the DuckDB raw layer to Parquet and register it as the Spark tables raw.<table>.

Run it after loading and before `dbt build --target spark` (`make build ENGINE=spark` does).
The Parquet folders are `<PAPERRANK_SPARK_WAREHOUSE>/raw_export/<table>/`; the `derived` schema
(what `paperrank related` computed) goes the same way, to `derived_export/` and derived.<table>.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from paperrank.core import config
from paperrank.core.errors import PaperrankError
from paperrank.core.warehouse import db_path
from paperrank.engines.dbt import run_dbt
from paperrank.engines.spark import (
    DERIVED_EXPORT,
    RAW_EXPORT,
    export_raw,
    java_problem,
    register_raw,
    warehouse_dir,
)


def sync_warehouse(db: Path | None = None, warehouse: Path | None = None) -> dict[str, int]:
    """Export the warehouse `db` (default PAPERRANK_DB) to the Spark warehouse folder
    (default PAPERRANK_SPARK_WAREHOUSE) and register its tables, after checking Spark can start."""
    problem = java_problem()
    if problem:
        raise PaperrankError(f"Spark cannot start: {problem}")
    folder = warehouse or warehouse_dir()
    config.set_spark_warehouse(folder)  # the dbt profile's spark target reads it from there
    source = db or db_path()
    if not source.exists():
        raise PaperrankError(f"no warehouse at {source} (PAPERRANK_DB); load data first")
    return sync(source, folder)


def sync(db: Path, warehouse: Path, dbt_args: Sequence[str] = ()) -> dict[str, int]:
    """Export `db`'s raw tables under `warehouse` and register them in its Spark catalog.

    The Spark session is dbt's (in this process), so it must use the same warehouse folder.
    """
    folder = warehouse / RAW_EXPORT
    rows = export_raw(db, folder)
    print(f"exported {len(rows)} raw tables to {folder}: "
          + ", ".join(f"{table} {count}" for table, count in rows.items()))
    register_raw(folder, list(rows), run_dbt, dbt_args)
    derived = export_raw(db, warehouse / DERIVED_EXPORT, schema="derived")
    if derived:  # a warehouse no loader of this version opened has none
        print(f"exported {len(derived)} derived tables to {warehouse / DERIVED_EXPORT}")
        register_raw(warehouse / DERIVED_EXPORT, list(derived), run_dbt, dbt_args, schema="derived")
    return rows
