"""`python -m paperrank.pipeline rollback`: publish the previous build again (and export it).

The published warehouse points at the publication before the current one in the publication
history (publish A, B; roll back to A; publish C; the next rollback gives A, never the
withdrawn B).  The CSVs are exported again from it and the report folder goes back to that
build's pages (drawn again when no version of them is kept), so the warehouse, the exports
and the report stay the same build.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from paperrank.pipeline import rank
from paperrank.pipeline.dbt import Dbt
from paperrank.pipeline.settings import Settings
from paperrank.publish import publish, report_files


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--export-dir", type=Path, default=rank.DEFAULT_EXPORT_DIR,
                        help=f"folder of the category CSVs (default {rank.DEFAULT_EXPORT_DIR})")
    parser.add_argument("--report-dir", type=Path, default=rank.DEFAULT_REPORT_DIR,
                        help=f"folder of the experts' report (default {rank.DEFAULT_REPORT_DIR})")
    parser.add_argument("--no-export", action="store_true",
                        help="do not export again nor restore the report")


def run(args: argparse.Namespace) -> int:
    published = publish.published_path()
    if not args.no_export:
        rank.check_targets(args.export_dir, args.report_dir)
    was, now = publish.rollback(published)
    print(f"{published}: {was.name} -> {now.name}")
    if not args.no_export:
        rank.export(Dbt(Settings().dbt_vars(), target="published"), args.export_dir, None, False)
        pages = report_files.restore(args.report_dir, published)
        if pages is None:
            pages = report_files.publish_report(published, args.report_dir)
        for venue, page in pages:
            print(f"report for {venue}: {page}")
    return 0
