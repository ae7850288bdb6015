"""`paperrank export`: the CSVs of the published build, swapped into place whole.

The same export the pipeline runs (dbt run-operation export_category_csvs, target
`published`); it reads only the published warehouse, read-only, and refuses a missing one.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from paperrank.pipeline import rank
from paperrank.pipeline.dbt import Dbt
from paperrank.pipeline.settings import Settings
from paperrank.publish import publish
from paperrank.publish.export_files import MANIFEST


@click.command("export", help=__doc__)
@click.option("--export-dir", type=click.Path(path_type=Path), default=rank.DEFAULT_EXPORT_DIR,
              help=f"folder of the category CSVs (default {rank.DEFAULT_EXPORT_DIR})")
@click.option("--venue", default="", help="the venue to export when several are ranked")
@click.option("--bom", is_flag=True, help="start each CSV with a UTF-8 byte order mark (for Excel)")
def command(export_dir: Path, venue: str, bom: bool) -> None:
    publish.require_published(publish.published_path())
    rank.check_writable_by_readers(publish.published_path())
    rank.export(Dbt(Settings().dbt_vars(), target="published"), export_dir, venue or None, bom)
    print(exported_line(export_dir))


def exported_line(export_dir: Path) -> str:
    """What the export wrote, from its manifest: "exported N categories (M papers) of build B to DIR"."""
    manifest = json.loads((export_dir / MANIFEST).read_text(encoding="utf-8"))
    settings = manifest.get("build_settings") or {}
    rows = sum(int(entry["rows"]) for entry in manifest["files"])
    return (f"exported {len(manifest['files'])} categories ({rows} papers) of build "
            f"{settings.get('build_id') or 'unknown'} to {export_dir}")
