"""`paperrank dbt [settings] -- <dbt args>` and `paperrank build [settings]`: dbt with the make settings.

The make targets that run dbt alone (build, docs) go through here: the vars come from the
settings options, colour is on only on a terminal, a lock held by another process is one line,
and a command that only reads (docs generate, test, show, ...) refuses a missing warehouse.
"""

from __future__ import annotations

import click

from paperrank.cli.options import settings_options
from paperrank.pipeline.run_dbt import run_dbt
from paperrank.pipeline.settings import Settings


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
