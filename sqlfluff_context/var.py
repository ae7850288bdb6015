"""dbt's `var()` as sqlfluff's jinja templater sees it (`.sqlfluff` library_path).

sqlfluff renders models without dbt, and its stand-in `var()` returns a placeholder text, so the
macros that compute with a var (the rank-uncertainty settings, the signal list) would lint SQL
no build runs. This module is called as `var(name, default)` and answers with the project's
defaults from dbt_project.yml, read by the same reader as Python's (paperrank.core.seeds): the
linter checks the SQL a default build compiles, and no third copy of the defaults can drift.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from paperrank.core.seeds import project_vars

_MISSING = object()


class _Var(types.ModuleType):
    """A module jinja can call, as it calls dbt's `var`."""

    def __call__(self, name: str, default: Any = _MISSING) -> Any:
        values = project_vars()
        if name in values:
            return values[name]
        if default is not _MISSING:
            return default
        raise KeyError(f"var {name!r} has no default in dbt_project.yml")


sys.modules[__name__].__class__ = _Var
