"""The method's parameters read from the project's seed files, for the non-dbt implementations.

The limit and the pandas implementation must rank by the very same weights, categories and
overrides as dbt, so they read the same CSVs rather than restating them.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

SEEDS = Path(__file__).resolve().parents[1] / "seeds"
# The signals and their order in the composite, as macros/ranking_signals.sql lists them.
SIGNALS = (
    "contribution_mean", "rating_mean", "confidence_mean", "soundness_mean",
    "presentation_mean", "rating_std",
)


@dataclass(frozen=True)
class Method:
    taxonomy: str
    weights: dict[str, float]  # every signal of SIGNALS, 0 when the weight set omits it
    ranked: dict[str, str]  # ranked category -> slug
    overrides: dict[str, str]  # lower(trim(primary_area)) -> category


def _rows(name: str, seeds: Path) -> list[dict[str, str]]:
    with (seeds / name).open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def load(taxonomy: str = "icml2026", weight_set: str = "article_2026",
         seeds: Path = SEEDS) -> Method:
    """The method as the seed files in `seeds` define it (the benchmark's scratch copy may add
    a taxonomy)."""
    weights = dict.fromkeys(SIGNALS, 0.0)
    for row in _rows("composite_weights.csv", seeds):
        if row["weight_set"] == weight_set:
            weights[row["signal"]] += float(row["weight"])
    ranked = {
        row["category"]: row["slug"] for row in _rows("taxonomies.csv", seeds)
        if row["taxonomy"] == taxonomy and row["is_ranked"].strip().lower() == "true"
    }
    overrides = {
        row["primary_area"].strip().lower(): row["category"]
        for row in _rows("primary_area_overrides.csv", seeds) if row["taxonomy"] == taxonomy
    }
    return Method(taxonomy, weights, ranked, overrides)
