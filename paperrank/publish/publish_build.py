"""`paperrank publish`: audit what `make build` left in the working warehouse, publish it.

For an operator who ran dbt by hand: the mart checks and the marts-agree check run first, and
nothing is published unless both pass (run `dbt build`, with its tests, before this).
"""

from __future__ import annotations

from pathlib import Path

import click

from paperrank.cli.options import settings_options
from paperrank.core.errors import PaperrankError
from paperrank.core.warehouse import db_path
from paperrank.pipeline import rank
from paperrank.pipeline.gates import Gates
from paperrank.pipeline.rank import Steps
from paperrank.pipeline.settings import Settings
from paperrank.publish.locks import check_writable


@click.command("publish", help=__doc__)
@settings_options
@click.option("--log", type=click.Path(path_type=Path), default=rank.DEFAULT_LOG,
              help="file the quality reports are appended to "
                   "(default: pipeline.log beside dbt.log, in DBT_LOG_PATH or logs/)")
def command(chosen: Settings, log: Path) -> None:
    working = db_path()
    if not working.exists():
        raise PaperrankError(f"no working warehouse at {working}; load data and run make build first")
    check_writable(working)
    log.parent.mkdir(parents=True, exist_ok=True)
    gates = Gates(chosen, log)
    try:
        steps = Steps(4)
        steps.run("raw checks", gates.raw)
        rank.audit_and_publish(chosen, log, steps, gates)
    finally:
        gates.stop()
