"""`paperrank publish`: audit what `make build` left in the working warehouse, publish it.

For an operator who ran dbt by hand: the marts-agree rules (dbt's singular tests tagged
marts_agree, tests/singular/) and the mart checks run first, and nothing is published unless
both pass (run `dbt build`, with its tests, before this).  --extras must name the extras the
build holds (marts.build_settings.extras; a build with other extras is refused before
anything runs), and only the ranking's and those extras' marts are audited and published.
"""

from __future__ import annotations

from pathlib import Path

import click

from paperrank.cli.options import settings_options
from paperrank.core import build_parts
from paperrank.core.errors import CheckFailed, PaperrankError
from paperrank.core.warehouse import db_path
from paperrank.engines import dbt_target
from paperrank.pipeline import rank
from paperrank.pipeline.dbt import Dbt, DbtFailed
from paperrank.pipeline.gates import Gates
from paperrank.pipeline.rank import Steps
from paperrank.pipeline.settings import Settings
from paperrank.publish import publish
from paperrank.publish.locks import check_writable


@click.command("publish", help=__doc__)
@settings_options
@click.option("--log", type=click.Path(path_type=Path), default=rank.default_log,
              help="file the quality reports are appended to "
                   "(default: pipeline.log beside dbt.log, in DBT_LOG_PATH or logs/)")
def command(chosen: Settings, log: Path) -> None:
    working = db_path()
    if not working.exists():
        raise PaperrankError(f"no working warehouse at {working}; load data and run make build first")
    check_writable(working)
    log.parent.mkdir(parents=True, exist_ok=True)
    dbt = Dbt(chosen.dbt_vars(), target=dbt_target(chosen.engine))
    extras = chosen.extras
    publish.check_build(working, chosen.engine, extras)  # before anything runs
    gates = Gates(chosen, log)
    try:
        steps = Steps(4)  # raw checks, marts agree, mart checks, publish
        steps.run("raw checks", gates.raw)
        steps.run("marts agree", lambda: agree(dbt, extras))
        rank.audit_and_publish(chosen, log, steps, gates, extras)
    finally:
        gates.stop()


def agree(dbt: Dbt, extras: tuple[str, ...]) -> None:
    """The marts-agree rules of the ranking and `extras` on the working warehouse: `make rank`
    runs them inside dbt build, a warehouse built by hand may have been built partly, or
    killed between two marts."""
    try:
        dbt.invoke("test", *build_parts.test_selection(extras, "tag:marts_agree"))
    except DbtFailed as failed:
        raise CheckFailed(f"the marts disagree, nothing was published ({failed})") from failed
