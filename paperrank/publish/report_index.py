"""The report root's index page: every venue's published page, its build and its date.

It is drawn from the report folders themselves (each a managed folder whose current version has
a manifest), not from the warehouse, so it lists exactly the pages an expert can open, whichever
command switched them in last.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from paperrank.publish import versions


def write_index(root: Path) -> Path:
    """The index page of the report root (`paperrank.report.render.write_index`): every venue's
    report folder under `root` (a managed folder whose current version has a manifest), its
    pages, build and date."""
    from paperrank.report.render import IndexEntry
    from paperrank.report.render import write_index as write

    entries = []
    for link in sorted(root.iterdir()) if root.is_dir() else []:
        version = versions.current(link)
        if version is None:
            continue
        try:
            manifest = json.loads((version / versions.MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for page in manifest.get("pages", []):
            entries.append(IndexEntry(title=str(page.get("venue")), page=f"{link.name}/{page.get('file')}",
                                      build_id=manifest.get("build_id"),
                                      built_at=_instant(manifest.get("written_at"))))
    return write(entries, root)


def _instant(text: object) -> datetime | None:
    try:
        return datetime.fromisoformat(str(text))
    except ValueError:
        return None
