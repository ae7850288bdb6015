"""The engines dbt can build the project on: DuckDB (the default) and Spark (dbt-spark).

The models are the same on both; engine-specific SQL lives in dispatch macros
(`macros/engine.sql`). This package holds the rest of what differs between engines, in one
place for the commands (Makefile, pipelines) to call: which dbt target an engine uses, how
the raw layer reaches Spark, and how readers open the marts an engine built.
"""

from __future__ import annotations

ENGINES = ("duckdb", "spark")

# dbt target of profiles.yml for each engine
TARGETS = {"duckdb": "dev", "spark": "spark"}


def dbt_target(engine: str) -> str:
    """The profiles.yml target that builds on `engine`; a clear error for an unknown one."""
    if engine not in TARGETS:
        raise ValueError(f"unknown engine {engine!r}; engines: {', '.join(ENGINES)}")
    return TARGETS[engine]
