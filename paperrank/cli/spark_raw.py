"""`paperrank spark-raw`: the raw layer as Spark tables (paperrank.engines.spark_raw)."""

from __future__ import annotations

from pathlib import Path

import click

from paperrank.core import config


@click.command("spark-raw")
@click.option("--db", type=click.Path(path_type=Path), help="DuckDB warehouse to export (default: PAPERRANK_DB)")
@click.option("--warehouse", type=click.Path(path_type=Path),
              help=f"Spark warehouse folder (default: PAPERRANK_SPARK_WAREHOUSE or {config.DEFAULT_SPARK_WAREHOUSE})")
def command(db: Path | None, warehouse: Path | None) -> None:
    """Export the DuckDB raw layer to Parquet and register it as the Spark tables raw.<table>.

    Run it after loading and before `dbt build --target spark` (`make build ENGINE=spark` does).
    The Parquet folders are `<PAPERRANK_SPARK_WAREHOUSE>/raw_export/<table>/`; the `derived` schema
    (what `paperrank related` computed) goes the same way, to `derived_export/` and derived.<table>.
    """
    from paperrank.engines.spark_raw import sync_warehouse

    sync_warehouse(db, warehouse)
