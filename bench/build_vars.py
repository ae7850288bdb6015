"""The dbt vars a built warehouse was built with, read back from its marts.build_settings, so
that a benchmark of a few models reruns them under the build's own settings (a rerun with the
project's defaults would rank another taxonomy or weight set than the one it was given)."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb

# build_settings columns that are dbt vars of the same name; null means the var was not set
_VARS = ("taxonomy", "weight_set", "top_n", "venue", "label_model")


def recorded_vars(db: Path) -> str:
    """The build's vars as JSON for dbt's --vars; raise ValueError if the warehouse has none."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        row = con.execute(f"select {', '.join(_VARS)} from marts.build_settings").fetchall()
    except duckdb.Error as error:
        raise ValueError(f"{db}: no marts.build_settings to read the build's vars from "
                         f"(pass --vars): {error}") from None
    finally:
        con.close()
    if len(row) != 1:
        raise ValueError(f"{db}: marts.build_settings holds {len(row)} rows, not 1 (pass --vars)")
    recorded = zip(_VARS, row[0], strict=True)
    return json.dumps({name: value for name, value in recorded if value is not None})
