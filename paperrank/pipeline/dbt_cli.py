"""`paperrank dbt [settings] -- <dbt args>` and `paperrank build [settings]`: dbt with the make settings.

The make targets that run dbt alone (build, docs) go through here: the vars come from the
settings options, colour is on only on a terminal, a lock held by another process is one line,
and a command that only reads (docs generate, test, show, ...) refuses a missing warehouse.
"""

from __future__ import annotations

from pathlib import Path

import click

from paperrank.cli.options import settings_options
from paperrank.core.errors import PaperrankError
from paperrank.core.warehouse import db_path
from paperrank.engines import dbt_target
from paperrank.pipeline import settings
from paperrank.pipeline.dbt import Dbt, check_seeds
from paperrank.pipeline.rank import build, refresh_related
from paperrank.pipeline.settings import Settings
from paperrank.publish.locks import check_writable

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
    dbt = Dbt(chosen.dbt_vars(), target=dbt_target(chosen.engine), quiet=False)
    if command == ["build"]:  # `paperrank build`: the parts; `paperrank dbt -- build ...` as given
        check_seeds()  # a malformed seed row in one line, before anything is written
        if working.exists():  # what the extra `related` reads, as `paperrank rank` computes it
            refresh_related(chosen, working)
        build(dbt, chosen.engine, chosen.extras)
    else:
        dbt.invoke(*command)


@click.command("dbt", help=__doc__, context_settings={"ignore_unknown_options": True})
@settings_options
@click.argument("dbt_args", nargs=-1, type=click.UNPROCESSED)
def command(chosen: Settings, dbt_args: tuple[str, ...]) -> None:
    run_dbt(chosen, [a for a in dbt_args if a != "--"])


@click.command("build", help="dbt build alone, in the working warehouse: the seeds, the models "
               "of the ranking and of the chosen extras (--extras) and their tests, with the make "
               "settings (publishes nothing; `paperrank publish` audits and publishes what it "
               "built). On Spark the raw layer is copied in first.")
@settings_options
def build_command(chosen: Settings) -> None:
    run_dbt(chosen, ["build"])


def _what_to_do(missing: Path) -> str:
    """Point at the working warehouses that do exist (the demo's is warehouse/demo.duckdb), or
    say how to make one."""
    others = sorted(str(path) for path in missing.parent.glob("*.duckdb")
                    if path.is_file() and not path.is_symlink() and path != missing)
    if others:
        return (f"working warehouses here: {', '.join(others)}; name one, e.g. "
                f"PAPERRANK_DB={others[0]} make docs")
    return "load a venue and run `make rank` first (README), or `make demo`"
