"""The ranking's settings, as dbt vars: one definition for every command (the options: paperrank.cli.options).

Every dbt var that changes the ranking is a flag here and a make variable (TAXONOMY, TOP_N,
WEIGHT_SET, VENUE, LABEL_MODEL); dbt checks the values itself (macros/validation/check_settings.sql), so
a wrong one fails the same way whether it comes from make, from here or from `dbt --vars`.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from paperrank.core import config


@dataclass(frozen=True)
class Settings:
    taxonomy: str = config.DEFAULT_TAXONOMY
    top_n: int = config.DEFAULT_TOP_N
    weight_set: str = config.DEFAULT_WEIGHT_SET
    venue: str | None = None
    label_model: str | None = None
    profile: str | None = None  # review-form profile of the raw checks (not a dbt var)
    engine: str = config.DEFAULT_ENGINE  # the engine dbt builds on (engines.ENGINES; not a dbt var)

    def dbt_vars(self) -> str:
        """The dbt vars as JSON (valid YAML), so no value can break out of the mapping."""
        values = asdict(self)
        values.pop("profile")
        values.pop("engine")
        return json.dumps(values)
