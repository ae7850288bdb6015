"""`paperrank export`: the CSVs of the published build, swapped into place whole.

The same export the pipeline runs and ops' `dbt run-operation export_category_csvs` calls
(paperrank.publish.category_csvs); it reads only the published warehouse, read-only, and refuses
a missing one.
"""

from __future__ import annotations

from pathlib import Path

import click

from paperrank.pipeline import rank
from paperrank.publish import publish


@click.command("export", help=__doc__)
@click.option("--export-dir", type=click.Path(path_type=Path), default=rank.DEFAULT_EXPORT_DIR,
              help=f"folder of the category CSVs (default {rank.DEFAULT_EXPORT_DIR})")
@click.option("--venue", default="", help="the venue to export when several are ranked")
@click.option("--bom", is_flag=True, help="start each CSV with a UTF-8 byte order mark (for Excel)")
def command(export_dir: Path, venue: str, bom: bool) -> None:
    publish.require_published(publish.published_path())
    rank.check_writable_by_readers(publish.published_path())
    print(rank.export(export_dir, venue or None, bom))
