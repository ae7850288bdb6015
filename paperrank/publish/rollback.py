"""`paperrank rollback`: publish the previous build again (and export it, and restore its report).

The published warehouse points at the publication before the current one in the publication
history (publish A, B; roll back to A; publish C; the next rollback gives A, never the
withdrawn B).  The CSVs are exported again from it and the report folder goes back to that
build's pages (drawn again when no version of them is kept), so the warehouse, the exports
and the report stay the same build.
"""

from __future__ import annotations

from pathlib import Path

import click

from paperrank.pipeline import rank
from paperrank.publish import publish, report_files


@click.command("rollback", help=__doc__)
@click.option("--export-dir", type=click.Path(path_type=Path), default=rank.DEFAULT_EXPORT_DIR,
              help=f"folder of the category CSVs (default {rank.DEFAULT_EXPORT_DIR})")
@click.option("--report-dir", type=click.Path(path_type=Path), default=rank.DEFAULT_REPORT_DIR,
              help=f"folder of the experts' report (default {rank.DEFAULT_REPORT_DIR})")
@click.option("--no-export", is_flag=True, help="do not export again nor restore the report")
def command(export_dir: Path, report_dir: Path, no_export: bool) -> None:
    published = publish.published_path()
    if not no_export:
        rank.check_targets(export_dir, report_dir)
    was, now = publish.rollback(published)
    print(f"{published}: {was.name} -> {now.name}")
    if not no_export:
        print(rank.export(export_dir, None, False))
        pages = report_files.restore(report_dir, published)
        if pages is None:
            pages = report_files.publish_report(published, report_dir)
        for venue, page in pages:
            print(f"report for {venue}: {page}")
