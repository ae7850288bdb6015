"""`python -m paperrank.pipeline rollback`: publish the previous build again (and export it).

The published warehouse points at the publication before the current one; the CSVs are
exported again from it, so the exports and the warehouse stay the same build.
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
    parser.add_argument("--no-export", action="store_true", help="do not export again")


def run(args: argparse.Namespace) -> int:
    published = publish.published_path()
    was, now = publish.rollback(published)
    print(f"{published}: {was.name} -> {now.name}")
    if not args.no_export:
        rank.export(Dbt(Settings().dbt_vars(), target="published"), args.export_dir, None, False)
    return 0
