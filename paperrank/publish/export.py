"""One venue's CSVs of the published build, swapped into place whole.

The export `deliver` and `roll_back` end with, and what `paperrank export` runs alone (ops'
`dbt run-operation export_category_csvs` reaches the same `category_csvs.export` through the
dbt plugin). It reads only the published warehouse, read-only, and refuses a missing one; the
folder remembers its venue, so another venue whose name gives the same folder is refused.
"""

from __future__ import annotations

from pathlib import Path

from paperrank.core import venue_name
from paperrank.core.errors import PaperrankError
from paperrank.publish import category_csvs, outputs, publication, targets, venue_history, versions


def write_csvs(published: Path, export_dir: Path, venue: str, bom: bool) -> str:
    """The venue's category CSVs of `published` into `export_dir`; the summary line (the
    caller records the folder's venue, `outputs.remember`)."""
    return category_csvs.export(published, export_dir, venue, bom)


def export_published(export_dir: Path | None, venue: str | None, bom: bool) -> str:
    """The CSVs of `venue` (None: the only one published) of the published warehouse, into
    `export_dir` (None: the venue's own folder); the summary line."""
    if venue is not None:
        venue_name.check(venue, "--venue")
    published = publication.require_published(publication.published_path())
    targets.check_writable_by_readers(published)
    current = versions.current(published) or (published if published.is_file() else None)
    if current is None:
        raise PaperrankError(f"{published} is not a publication of paperrank")
    chosen = venue_history.one_venue(current, venue, doing="export")
    folder = outputs.export_dir(chosen, export_dir)
    done = write_csvs(published, folder, chosen, bom)
    outputs.remember(chosen, folder)
    return done
