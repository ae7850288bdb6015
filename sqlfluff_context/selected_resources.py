"""dbt's `selected_resources` as sqlfluff's jinja templater sees it (`.sqlfluff` library_path):
every node selected, as in a build of every part (macros/parts/built_extras.sql asks it)."""

from __future__ import annotations

import sys
import types


class _Everything(types.ModuleType):
    """A module jinja's `in` finds everything in."""

    def __contains__(self, unique_id: object) -> bool:
        return True


sys.modules[__name__].__class__ = _Everything
