"""dbt alone with the make settings (`paperrank dbt`, `paperrank build`).

The make targets that run dbt alone (build, docs) go through here: the settings become dbt's
vars, colour is on only on a terminal, a lock held by another process is one line, and a command
that only reads (docs generate, test, show, ...) refuses a missing warehouse.
"""

from __future__ import annotations

from pathlib import Path

from paperrank.core.errors import PaperrankError
from paperrank.core.warehouse import db_path
from paperrank.core.warehouse_locks import check_writable
from paperrank.engines import dbt_target
from paperrank.pipeline import settings
from paperrank.pipeline.dbt import Dbt, build, check_seeds
from paperrank.pipeline.related_extra import refresh_related
from paperrank.pipeline.settings import Settings

WRITES = {"build", "run", "seed", "snapshot"}


def run_dbt(chosen: Settings, command: list[str]) -> None:
    """Run one dbt command with the settings as vars, on the settings' engine."""
    if not command:
        raise PaperrankError("give a dbt command, e.g. paperrank dbt -- build")
    working = db_path()
    if command[0] not in WRITES and not working.exists():
        raise PaperrankError(f"no warehouse at {working} (PAPERRANK_DB): dbt {command[0]} only "
                             f"reads it; {_what_to_do(working)}")
    settings.check(chosen, working if command[0] in ("build", "run") and working.exists() else None)
    check_writable(working)
    if command == ["build"]:  # `paperrank build`: the parts; `paperrank dbt -- build ...` as given
        check_seeds()  # a malformed seed row in one line, before anything is written
        if working.exists():  # what the extra `related` reads, as `paperrank rank` computes it
            refresh_related(chosen, working)
        build(chosen.dbt_vars(), chosen.engine, chosen.extras, quiet=False)
    else:
        Dbt(chosen.dbt_vars(), target=dbt_target(chosen.engine), quiet=False).invoke(*command)


def _what_to_do(missing: Path) -> str:
    """Point at the working warehouses that do exist (the demo's is warehouse/demo.duckdb), or
    say how to make one."""
    others = sorted(str(path) for path in missing.parent.glob("*.duckdb")
                    if path.is_file() and not path.is_symlink() and path != missing)
    if others:
        return (f"working warehouses here: {', '.join(others)}; name one, e.g. "
                f"PAPERRANK_DB={others[0]} make docs")
    return "load a venue and run `make rank` first (README), or `make demo`"
