"""`paperrank rollback [--venue V]`: publish one venue's previous build again, and its CSVs and page.

The published warehouse holds every venue's latest audited build; a rollback brings the named
venue's previous one back (a new publication: that venue's rows of the earlier publication that
holds them, every other venue's rows as they are now), then exports that venue's CSVs again and
points its report folder back at that build's page (drawn again when no version of it is kept).
Other venues' tables, CSVs and pages are left as they are. The order is each venue's own
(publish A, B; roll back to A; publish C; the next rollback gives A, never the withdrawn B).
VENUE may be left out when the published warehouse holds one venue.
"""

from __future__ import annotations

from pathlib import Path

import click

from paperrank.core import config
from paperrank.publish.rollback import roll_back


@click.command("rollback", help=__doc__)
@click.option("--venue", default=None, help="the venue to roll back (default: the only one published)")
@click.option("--export-dir", type=click.Path(path_type=Path), default=None,
              help=f"folder of the venue's CSVs (default {config.DEFAULT_EXPORT_DIR}/<venue>)")
@click.option("--report-dir", type=click.Path(path_type=Path), default=None,
              help=f"folder of the venue's report page (default {config.DEFAULT_REPORT_DIR}/<venue>)")
@click.option("--no-export", is_flag=True, help="do not export again nor restore the report")
def command(venue: str | None, export_dir: Path | None, report_dir: Path | None, no_export: bool) -> None:
    roll_back(venue, export_dir, report_dir, with_outputs=not no_export,
              say=lambda line: print(line, flush=True))
