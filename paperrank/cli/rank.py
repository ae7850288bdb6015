"""`paperrank rank`: rank the loaded venue, check it, publish it, export its CSVs and draw its page.

    dbt build with every test -> the checks of the raw data and of the marts -> publish ->
    one CSV per ranked category -> the experts' report page

Everything up to the checks happens in the working warehouse (PAPERRANK_DB); what analysts,
spreadsheets and experts see changes only when every check passed, in one step: the published
warehouse (PAPERRANK_PUBLISHED_DB, every venue's latest build), then the venue's CSVs and page.
A failed or interrupted run leaves them as they were. Each step prints one line; the checks'
reports go to the log (and to the screen when a check fails), dbt's log to its log folder (at
info; DBT_LOG_LEVEL_FILE=debug adds every statement). The venue's CSVs go to exports/<venue>/
and its page to output/report/<venue>/ unless --export-dir / --report-dir say otherwise.
"""

from __future__ import annotations

from pathlib import Path

import click

from paperrank.cli.options import settings_options
from paperrank.core import config
from paperrank.pipeline import rank as pipeline
from paperrank.pipeline.settings import Settings
from paperrank.pipeline.summary import category_summary
from paperrank.report import duplicates as near
from paperrank.report import quota as pick_quota


@click.command("rank", help=__doc__)
@settings_options
@click.option("--export-dir", type=click.Path(path_type=Path), default=None,
              help=f"folder of the venue's category CSVs (default {config.DEFAULT_EXPORT_DIR}/<venue>)")
@click.option("--report-dir", type=click.Path(path_type=Path), default=None,
              help=f"folder of the venue's report page (default {config.DEFAULT_REPORT_DIR}/<venue>, "
                   f"with {config.DEFAULT_REPORT_DIR}/index.html listing every venue's page)")
@click.option("--pick-quota", "quota", default=None,
              help="papers each expert is asked to pick per category on the report's pages "
                   f"(1 to {pick_quota.MAX_QUOTA}; default {pick_quota.PICK_QUOTA})")
@click.option("--near-duplicate", default=None,
              help="similarity from which two picks that are each other's related papers get a "
                   f"notice on the report's pages (above 0, at most 1; default {near.NEAR_DUPLICATE})")
@click.option("--bom", is_flag=True, help="start each CSV with a UTF-8 byte order mark (for Excel)")
@click.option("--log", type=click.Path(path_type=Path), default=config.pipeline_log,
              help="file the quality reports are appended to "
                   "(default: pipeline.log beside dbt.log, in DBT_LOG_PATH or logs/)")
def command(chosen: Settings, export_dir: Path | None, report_dir: Path | None, quota: str | None,
            near_duplicate: str | None, bom: bool, log: Path) -> None:
    options: dict[str, float] = {}  # the page's settings, checked before anything runs
    if quota:
        options["quota"] = pick_quota.parse_quota(quota)
    if near_duplicate:
        options["near_duplicate"] = near.parse_near_duplicate(near_duplicate)
    _, destination = pipeline.rank(chosen, export_dir, bom, log, report_dir, **options)
    print(category_summary(config.published_db(), destination.venue), flush=True)
