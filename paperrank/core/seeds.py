"""The method's data as Python reads it: the seed files, the ranking signals, the review scores.

dbt loads `seeds/*.csv` as tables, lists the composite's signals in the `ranking_signals` var
of dbt_project.yml and the per-review score columns of raw.reviews in `review_score_columns`;
the loaders, the classifier, the quality gates and the benchmark read the very same files
through this module (one path, one boolean parser, one reader), so no Python copy of a seed, of
the signal list or of the review form's scores can drift from what dbt ranks with.
"""

from __future__ import annotations

import csv
from functools import cache
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "seeds"
PROJECT_FILE = ROOT / "dbt_project.yml"
_TRUE = {"true", "1", "yes", "t"}


def read_seed(name: str, path: Path | None = None) -> list[dict[str, str]]:
    """The rows of `seeds/<name>.csv` (or of `path`), as dicts of text."""
    target = path if path is not None else SEEDS / f"{name}.csv"
    with target.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def seed_flag(value: str | None) -> bool:
    """A seed's boolean cell ("true", "1", "yes", "t", any case) as dbt's seeds read it."""
    return str(value or "").strip().lower() in _TRUE


@cache
def project_vars() -> dict[str, Any]:
    """The dbt project's vars with their defaults, from dbt_project.yml as dbt reads them."""
    with PROJECT_FILE.open(encoding="utf-8") as handle:
        project = yaml.safe_load(handle)
    return dict(project["vars"])


def ranking_signals() -> tuple[str, ...]:
    """The per-paper signals the composite can weigh, in order (the `ranking_signals` var)."""
    signals = project_vars().get("ranking_signals")
    if not isinstance(signals, list) or not all(isinstance(s, str) for s in signals):
        raise RuntimeError(f"{PROJECT_FILE}: vars.ranking_signals must be a list of signal names")
    return tuple(signals)


def review_score_columns() -> tuple[str, ...]:
    """The per-review score columns of raw.reviews, in order (the `review_score_columns` var):
    what every loader fills and what dbt's staging reads."""
    columns = project_vars().get("review_score_columns")
    if (not isinstance(columns, list) or not columns
            or not all(isinstance(c, str) and c.isidentifier() and c.islower() for c in columns)):
        raise RuntimeError(f"{PROJECT_FILE}: vars.review_score_columns must be a list of "
                           "lower-case column names")
    return tuple(columns)
