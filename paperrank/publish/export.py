"""One venue's CSVs of the published build, swapped into place whole.

`paperrank export` alone: the same `category_csvs.export` that `deliver` and `roll_back` end
with, and that ops' `dbt run-operation export_category_csvs` reaches through the dbt plugin. It
reads only the published warehouse, read-only, and refuses a missing one; the folder remembers
its venue, so another venue whose name gives the same folder is refused.
"""

from __future__ import annotations

from pathlib import Path

from paperrank.core import venue_name
from paperrank.core.errors import PaperrankError
from paperrank.publish import category_csvs, outputs, publication, targets, venue_history, versions


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
    done = category_csvs.export(published, folder, chosen, bom)
    outputs.remember(chosen, folder)
    return done
