"""Export the DuckDB raw layer to Parquet and register it as the Spark tables raw.<table>.

Run it after loading and before `dbt build --target spark` (`make build ENGINE=spark` does).
The Parquet folders are `<PAPERRANK_SPARK_WAREHOUSE>/raw_export/<table>/`.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path

from paperrank.core.warehouse import db_path
from paperrank.engines.dbt import run_dbt
from paperrank.engines.spark import RAW_EXPORT, export_raw, java_problem, register_raw, warehouse_dir


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, help="DuckDB warehouse to export (default: PAPERRANK_DB)")
    parser.add_argument("--warehouse", type=Path,
                        help="Spark warehouse folder (default: PAPERRANK_SPARK_WAREHOUSE or warehouse/spark)")


def run(args: argparse.Namespace) -> int:
    problem = java_problem()
    if problem:
        raise ValueError(f"Spark cannot start: {problem}")
    warehouse = args.warehouse or warehouse_dir()
    # the dbt profile's spark target reads the warehouse folder from the environment
    os.environ["PAPERRANK_SPARK_WAREHOUSE"] = str(warehouse)
    sync(args.db or db_path(), warehouse)
    return 0


def sync(db: Path, warehouse: Path, dbt_args: Sequence[str] = ()) -> dict[str, int]:
    """Export `db`'s raw tables under `warehouse` and register them in its Spark catalog.

    The Spark session is dbt's (in this process), so it must use the same warehouse folder.
    """
    folder = warehouse / RAW_EXPORT
    rows = export_raw(db, folder)
    print(f"exported {len(rows)} raw tables to {folder}: "
          + ", ".join(f"{table} {count}" for table, count in rows.items()))
    register_raw(folder, list(rows), run_dbt, dbt_args)
    return rows
