"""The method's data as Python reads it: the seed files and the ranking signals.

dbt loads `seeds/*.csv` as tables and lists the composite's signals in the dbt var
`ranking_signals` (dbt_project.yml; earlier in the `ranking_signals` macro); the loaders,
the classifier, the quality gates and the benchmark read the very same files through this
module (one path, one boolean parser, one reader), so no Python copy of a seed or of the
signal list can drift from what dbt ranks with.
"""

from __future__ import annotations

import csv
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "seeds"
PROJECT = ROOT / "dbt_project.yml"
SIGNALS_MACRO = ROOT / "macros" / "ranking" / "ranking_signals.sql"
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
def ranking_signals() -> tuple[str, ...]:
    """The per-paper signals the composite can weigh, in order: the dbt var `ranking_signals`
    of dbt_project.yml when it is there, else the list the `ranking_signals` macro returns."""
    import yaml

    project = yaml.safe_load(PROJECT.read_text(encoding="utf-8")) or {}
    listed = (project.get("vars") or {}).get("ranking_signals")
    if listed:
        if not isinstance(listed, list) or not all(isinstance(s, str) for s in listed):
            raise RuntimeError(f"{PROJECT}: the var ranking_signals must be a list of names")
        return tuple(listed)
    text = SIGNALS_MACRO.read_text(encoding="utf-8")
    body = re.search(r"return\(\s*\[(.*?)\]\s*\)", text, re.S)
    if body is None:
        raise RuntimeError(f"{SIGNALS_MACRO} no longer returns a list of signal names")
    return tuple(re.findall(r"'([a-z_]+)'", body.group(1)))
