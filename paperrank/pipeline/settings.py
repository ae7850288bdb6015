"""The ranking's settings, as flags, as dbt vars: one definition for every command.

Every dbt var that changes the ranking is a flag here and a make variable (TAXONOMY, TOP_N,
WEIGHT_SET, VENUE, LABEL_MODEL); dbt checks the values itself (macros/validation/check_settings.sql), so
a wrong one fails the same way whether it comes from make, from here or from `dbt --vars`.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass

from paperrank.engines import ENGINES


@dataclass(frozen=True)
class Settings:
    taxonomy: str = "icml2026"
    top_n: int = 30
    weight_set: str = "article_2026"
    venue: str | None = None
    label_model: str | None = None
    profile: str | None = None  # review-form profile of the raw checks (not a dbt var)
    engine: str = "duckdb"  # the engine dbt builds on (engines.ENGINES; not a dbt var)

    def dbt_vars(self) -> str:
        """The dbt vars as JSON (valid YAML), so no value can break out of the mapping."""
        values = asdict(self)
        values.pop("profile")
        values.pop("engine")
        return json.dumps(values)


def _whole_number(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 1, got {text!r}")
    return int(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    defaults = Settings()
    parser.add_argument("--taxonomy", default=defaults.taxonomy,
                        help=f"taxonomy of seeds/taxonomies.csv (default {defaults.taxonomy})")
    parser.add_argument("--top-n", type=_whole_number, default=defaults.top_n,
                        help=f"shortlist size per ranked category (default {defaults.top_n})")
    parser.add_argument("--weight-set", default=defaults.weight_set,
                        help=f"weights of seeds/composite_weights.csv (default {defaults.weight_set})")
    parser.add_argument("--venue", default="", help="rank this venue only (default: every venue)")
    parser.add_argument("--label-model", default="",
                        help="use labels of this model only (default: the latest label of any model)")
    parser.add_argument("--profile", default="",
                        help="review-form profile of the raw checks (default: found per venue)")
    parser.add_argument("--engine", choices=ENGINES, default=defaults.engine,
                        help=f"engine dbt builds on (default {defaults.engine}; spark: README \"Spark\")")


def from_args(args: argparse.Namespace) -> Settings:
    return Settings(taxonomy=args.taxonomy, top_n=args.top_n, weight_set=args.weight_set,
                    venue=args.venue or None, label_model=args.label_model or None,
                    profile=args.profile or None, engine=args.engine)
