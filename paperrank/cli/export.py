"""`paperrank export`: one venue's CSVs of the published build, swapped into place whole.

The same export the pipeline runs and ops' `dbt run-operation export_category_csvs` calls
(paperrank.publish.category_csvs); it reads only the published warehouse, read-only, and refuses
a missing one. The venue may be left out when the published warehouse holds one venue; its CSVs
go to its own folder unless --export-dir says otherwise.
"""

from __future__ import annotations

from pathlib import Path

import click

from paperrank.core import config
from paperrank.publish.export import export_published


@click.command("export", help=__doc__)
@click.option("--export-dir", type=click.Path(path_type=Path), default=None,
              help=f"folder of the venue's CSVs (default {config.DEFAULT_EXPORT_DIR}/<venue>)")
@click.option("--venue", default=None, help="the venue to export (default: the only one published)")
@click.option("--bom", is_flag=True, help="start each CSV with a UTF-8 byte order mark (for Excel)")
def command(export_dir: Path | None, venue: str | None, bom: bool) -> None:
    print(export_published(export_dir, venue, bom))
