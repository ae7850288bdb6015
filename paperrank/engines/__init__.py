"""The engines dbt can build the project on: DuckDB (the default) and Spark (dbt-spark).

The models are the same on both; engine-specific SQL lives in dispatch macros
(`macros/engine_shims/`, `macros/random/uint64_arithmetic.sql`). This package holds the rest
of what differs between engines, in one place for the commands (Makefile, pipelines) to
call: which dbt target an engine uses, how the raw layer reaches Spark, and how readers open
the marts an engine built.
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from paperrank.core import config
from paperrank.core.errors import PaperrankError
from paperrank.core.warehouse import connect

ENGINES = ("duckdb", "spark")

# dbt target of profiles.yml for each engine
TARGETS = {"duckdb": config.DEFAULT_DBT_TARGET, "spark": "spark"}


def dbt_target(engine: str) -> str:
    """The profiles.yml target that builds on `engine`; a clear error for an unknown one."""
    if engine not in TARGETS:
        raise PaperrankError(f"unknown engine {engine!r}; engines: {', '.join(ENGINES)}")
    return TARGETS[engine]


def marts_location(engine: str, db: Path) -> Path:
    """Where `engine`'s marts are: the DuckDB warehouse file, or the Spark warehouse folder."""
    dbt_target(engine)
    if engine == "spark":
        from paperrank.engines.spark import warehouse_dir

        return warehouse_dir()
    return db


def open_marts(engine: str, db: Path, schemas: tuple[str, ...] = ("marts",)) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection, read-only, in which `<schema>.<table>` are the tables `engine` built
    (on DuckDB the whole warehouse file; on Spark the tables of `schemas`).

    Readers (quality gates, the audit, the publish step) query it the same way whichever
    engine built them.
    """
    location = marts_location(engine, db)
    if engine == "spark":
        from paperrank.engines.spark import marts_connection

        return marts_connection(location, schemas)
    return connect(location, read_only=True)
