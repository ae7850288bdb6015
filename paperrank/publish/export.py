"""`python -m paperrank.pipeline export`: the CSVs of the published build, swapped into place whole.

The same export the pipeline runs (dbt run-operation export_category_csvs, target
`published`); it reads only the published warehouse, read-only, and refuses a missing one.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from paperrank.pipeline import rank
from paperrank.pipeline.dbt import Dbt
from paperrank.pipeline.settings import Settings
from paperrank.publish import publish


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--export-dir", type=Path, default=rank.DEFAULT_EXPORT_DIR,
                        help=f"folder of the category CSVs (default {rank.DEFAULT_EXPORT_DIR})")
    parser.add_argument("--venue", default="", help="the venue to export when several are ranked")
    parser.add_argument("--bom", action="store_true",
                        help="start each CSV with a UTF-8 byte order mark (for Excel)")


def run(args: argparse.Namespace) -> int:
    publish.require_published(publish.published_path())
    rank.check_writable_by_readers(publish.published_path())
    rank.export(Dbt(Settings().dbt_vars(), target="published"), args.export_dir,
                args.venue or None, args.bom)
    return 0
