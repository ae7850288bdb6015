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
from paperrank.core import config
from paperrank.pipeline.publish_built import publish_built
from paperrank.pipeline.settings import Settings


@click.command("publish", help=__doc__)
@settings_options
@click.option("--log", type=click.Path(path_type=Path), default=config.pipeline_log,
              help="file the quality reports are appended to "
                   "(default: pipeline.log beside dbt.log, in DBT_LOG_PATH or logs/)")
def command(chosen: Settings, log: Path) -> None:
    publish_built(chosen, log)
