"""dbt's `adapter` as sqlfluff's jinja templater sees it (`.sqlfluff` library_path).

sqlfluff renders models without a warehouse, so `adapter.dispatch(name, namespace)` picks the
`duckdb__` or `default__` form of a macro: the linter checks the DuckDB SQL, as dbt-duckdb runs it.
"""

from __future__ import annotations

from typing import Any

from jinja2 import pass_context
from jinja2.runtime import Context


@pass_context
def dispatch(context: Context, macro_name: str, macro_namespace: str | None = None) -> Any:
    """The DuckDB implementation of `macro_name`, as dbt-duckdb's dispatch would choose it."""
    for prefix in ("duckdb__", "default__"):
        macro = context.get(prefix + macro_name)
        if macro is not None:
            return macro
    raise KeyError(f"no duckdb__ or default__ implementation of macro {macro_name}")
