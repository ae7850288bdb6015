"""The method's parameters read from the project's seed files, for the non-dbt implementations.

The limit and the pandas implementation must rank by the very same weights, categories and
overrides as dbt, so they read the same CSVs rather than restating them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from paperrank.core.seeds import SEEDS, ranking_signals, read_seed, seed_flag

# The signals and their order in the composite, read from the ranking_signals var of dbt_project.yml.
SIGNALS = ranking_signals()


@dataclass(frozen=True)
class Method:
    taxonomy: str
    weights: dict[str, float]  # every signal of SIGNALS, 0 when the weight set omits it
    ranked: dict[str, str]  # ranked category -> slug
    overrides: dict[str, str]  # lower(trim(primary_area)) -> category


def load(taxonomy: str = "icml2026", weight_set: str = "article_2026",
         seeds: Path = SEEDS) -> Method:
    """The method as the seed files in `seeds` define it (the benchmark's scratch copy may add
    a taxonomy)."""
    weights = dict.fromkeys(SIGNALS, 0.0)
    for row in read_seed("composite_weights", seeds / "composite_weights.csv"):
        if row["weight_set"] == weight_set:
            weights[row["signal"]] += float(row["weight"])
    ranked = {
        row["category"]: row["slug"] for row in read_seed("taxonomies", seeds / "taxonomies.csv")
        if row["taxonomy"] == taxonomy and seed_flag(row["is_ranked"])
    }
    overrides = {
        row["primary_area"].strip().lower(): row["category"]
        for row in read_seed("primary_area_overrides", seeds / "primary_area_overrides.csv")
        if row["taxonomy"] == taxonomy
    }
    return Method(taxonomy, weights, ranked, overrides)
