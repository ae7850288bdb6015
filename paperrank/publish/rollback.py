"""`paperrank rollback`: publish the previous build again (and export it).

The published warehouse points at the publication before the current one; the CSVs are
exported again from it, so the exports and the warehouse stay the same build.
"""

from __future__ import annotations

from pathlib import Path

import click

from paperrank.pipeline import rank
from paperrank.pipeline.dbt import Dbt
from paperrank.pipeline.settings import Settings
from paperrank.publish import publish


@click.command("rollback", help=__doc__)
@click.option("--export-dir", type=click.Path(path_type=Path), default=rank.DEFAULT_EXPORT_DIR,
              help=f"folder of the category CSVs (default {rank.DEFAULT_EXPORT_DIR})")
@click.option("--no-export", is_flag=True, help="do not export again")
def command(export_dir: Path, no_export: bool) -> None:
    published = publish.published_path()
    was, now = publish.rollback(published)
    print(f"{published}: {was.name} -> {now.name}")
    if not no_export:
        rank.export(Dbt(Settings().dbt_vars(), target="published"), export_dir, None, False)
