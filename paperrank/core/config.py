"""Paths and defaults, and the one module that reads the environment.

Every environment variable the project honours is read here, when it is needed (so a test or
a make target that sets one before the call is obeyed), and every default that more than one
command shares is stated here once (the ranking's settings' defaults are dbt_project.yml's vars,
read from there): the working and published warehouses, the Spark warehouse,
the shortlist size, the export and report folders, dbt's target and log folders, and the raw
score columns. Secrets (API keys, the OpenReview password) are read on demand and returned to
the caller only; nothing here logs or stores them.
"""

from __future__ import annotations

import os
from pathlib import Path

from paperrank.core.seeds import project_vars

# -- defaults -----------------------------------------------------------------------------
DEFAULT_DB = Path("warehouse") / "paperrank.duckdb"  # the working warehouse
DEFAULT_PUBLISHED = Path("warehouse") / "published.duckdb"  # what analysts open, read-only
DEFAULT_SPARK_WAREHOUSE = Path("warehouse") / "spark"
DEFAULT_EXPORT_DIR = Path("exports")
DEFAULT_REPORT_DIR = Path("output") / "report"
# the ranking's defaults are dbt_project.yml's vars, their one home (read, never copied)
DEFAULT_TAXONOMY: str = project_vars()["taxonomy"]
DEFAULT_TOP_N: int = project_vars()["top_n"]  # the shortlist per ranked category
DEFAULT_WEIGHT_SET: str = project_vars()["weight_set"]
DEFAULT_ENGINE = "duckdb"
ICML_2026_ACCEPTED = 6352  # the synthetic venue's default size: ICML 2026's accepted papers
# profiles.yml's default target (DuckDB). Every dbt command of the pipeline names its target:
# dbt keys its saved parse on the --target given, so one command with `--target dev` and the
# next with none would each throw away the other's partial parse (a full parse, ~6 s).
DEFAULT_DBT_TARGET = "dev"

def _env(name: str) -> str:
    """The variable's value, empty when unset."""
    return os.environ.get(name) or ""


# -- paths --------------------------------------------------------------------------------
def pipeline_log() -> Path:
    """pipeline.log beside dbt.log (in DBT_LOG_PATH or logs/), where the checks' reports go;
    read when a command runs: a process that runs several commands (a test session, a bench)
    may change the variable."""
    return dbt_log_path() / "pipeline.log"


def working_db() -> Path:
    """The working warehouse: `PAPERRANK_DB` if set, so scripts and dbt always agree."""
    return Path(_env("PAPERRANK_DB") or DEFAULT_DB)


def published_db() -> Path:
    """The published warehouse: `PAPERRANK_PUBLISHED_DB` if set."""
    return Path(_env("PAPERRANK_PUBLISHED_DB") or DEFAULT_PUBLISHED)


def spark_warehouse() -> Path:
    """The Spark warehouse folder: `PAPERRANK_SPARK_WAREHOUSE`, as profiles.yml reads it."""
    return Path(_env("PAPERRANK_SPARK_WAREHOUSE") or DEFAULT_SPARK_WAREHOUSE)


def dbt_target_warehouse(target: str) -> Path:
    """Where a dbt target's relations live: Spark's warehouse folder for `spark`, else the
    working DuckDB file (what a parse's relation names and dbt's check of a saved parse depend
    on: paperrank.pipeline.dbt, paperrank.pipeline.saved_parses)."""
    return spark_warehouse() if target == "spark" else working_db()


def set_spark_warehouse(folder: Path) -> None:
    """Point this process's dbt spark target (profiles.yml reads the variable) at `folder`."""
    os.environ["PAPERRANK_SPARK_WAREHOUSE"] = str(folder)


def dbt_target_path() -> Path:
    """dbt's target folder (`DBT_TARGET_PATH`, else target/): run_results.json, manifest."""
    return Path(_env("DBT_TARGET_PATH") or "target")


def dbt_log_path() -> Path:
    """dbt's log folder (`DBT_LOG_PATH`, else logs/); the pipeline's log sits beside dbt.log."""
    return Path(_env("DBT_LOG_PATH") or "logs")


def classify_config_file() -> Path | None:
    """The classifier's config file named by `PAPERRANK_CLASSIFY_CONFIG`, if any."""
    value = _env("PAPERRANK_CLASSIFY_CONFIG")
    return Path(value) if value else None


def source_date_epoch() -> int | None:
    """`SOURCE_DATE_EPOCH` (reproducible-builds convention): the report's generation time."""
    value = _env("SOURCE_DATE_EPOCH")
    return int(value) if value else None


# -- secrets ------------------------------------------------------------------------------
def secret(name: str) -> str:
    """The value of the secret variable `name` (an API key), empty when unset."""
    return _env(name)


def openreview_credentials() -> tuple[str, str]:
    """OPENREVIEW_USERNAME and OPENREVIEW_PASSWORD, empty when unset."""
    return _env("OPENREVIEW_USERNAME"), _env("OPENREVIEW_PASSWORD")
