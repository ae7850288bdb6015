"""The experts' report as part of the publication: a version folder, switched whole.

Pages rewritten in place would leave a truncated page on a full disk, and a rollback would leave
the withdrawn build's page in front of the experts. So the pages of one build are written into a
temporary folder in `<report dir>.versions/`, with a manifest (the build id, each page's venue,
size and sha256), made read-only and switched in with one atomic rename
(`paperrank.publish.versions`), like the warehouse and the CSVs. A failure at any point leaves
the previous report as it was. Rollback points the report back at the version of the build it
restores (`restore`), or draws that build's pages again.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

import duckdb

from paperrank.core.errors import PaperrankError
from paperrank.core.warehouse import one_row
from paperrank.publish import versions


def claim(report_dir: Path, create: bool = True) -> None:
    """Refuse a report folder the project did not write (`versions.claim`), even one of pages
    an older paperrank drew in place: a copied page looks the same."""
    versions.claim(report_dir, "report", None, "REPORT_DIR", create)


def build_id_of(db: Path, venues: list[str] | None = None) -> str:
    """The build of `db` the pages show: the venues' (the first build id of them), or the
    file's when no venue is named."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        if venues:
            return str(one_row(con, "select min(build_id) from marts.build_settings where venue in ("
                               + ", ".join(_literal(v) for v in venues) + ")")[0])
        return str(one_row(con, "select min(build_id) from marts.build_settings")[0])
    finally:
        con.close()


class PageVersion(NamedTuple):
    """The next version of a report folder, and the (page file, venue) pairs drawn into it
    once it is written."""

    version: versions.NewVersion
    drawn: list[tuple[str, str]]

    def pages(self) -> list[tuple[str, Path]]:
        """(venue, page) pairs, each page named through the report folder."""
        return [(venue, self.version.link / name) for name, venue in self.drawn]


def new_version(db: Path, report_dir: Path, venues: list[str] | None = None,
                **options: Any) -> PageVersion:
    """The pages of `db`'s build (its `venues`, else every venue) and their manifest, drawn
    when the version is written (`versions.write_versions`, which names a disk that refuses
    them in one line and leaves the previous report as it was)."""
    drawn: list[tuple[str, str]] = []
    write = partial(_draw, db, venues, options, drawn)
    shown = ", ".join(venues) if venues else "every venue"
    return PageVersion(versions.NewVersion(report_dir, "report", "REPORT_DIR", write,
                                           f"the report of {shown}", "the previous report is unchanged"),
                       drawn)


def _draw(db: Path, venues: list[str] | None, options: dict[str, Any],
          drawn: list[tuple[str, str]], staged: Path) -> str:
    """The pages and their manifest into `staged`, each page listed in `drawn`; the build id."""
    from paperrank.report.pages import write_reports

    build_id = build_id_of(db, venues)
    pages: dict[str, str] = {}
    for venue, page in write_reports(db, staged, venues, **options):
        if page.name in pages:
            raise PaperrankError(
                f"venues {pages[page.name]!r} and {venue!r} would share the report page "
                f"{page.name}; rank them one at a time (VENUE=...) into different REPORT_DIRs")
        pages[page.name] = venue
    manifest = {"build_id": build_id, "published_db": str(db),
                "written_at": datetime.now(UTC).isoformat(timespec="seconds"),
                "pages": [{"venue": venue, "file": name,
                           "bytes": (staged / name).stat().st_size,
                           "sha256": hashlib.sha256((staged / name).read_bytes()).hexdigest()}
                          for name, venue in sorted(pages.items())]}
    (staged / versions.MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    drawn.extend(sorted(pages.items()))
    return build_id


def publish_report(db: Path, report_dir: Path, venues: list[str] | None = None,
                   **options: Any) -> list[tuple[str, Path]]:
    """Draw the pages of `db`'s build into a new version of `report_dir` and switch to it;
    return (venue, page) pairs, the pages named through `report_dir`."""
    new = new_version(db, report_dir, venues, **options)
    versions.write_versions(new.version)
    return new.pages()


def restore(report_dir: Path, db: Path, venue: str) -> list[tuple[str, Path]] | None:
    """Point `report_dir` at its newest version drawn from the venue's build in `db` (rollback);
    None when there is none (the caller draws the pages again)."""
    if not report_dir.is_symlink():
        return None
    claim(report_dir, create=False)
    wanted = build_id_of(db, [venue])
    for version in reversed(versions.listing(report_dir)):
        try:
            manifest = json.loads((version / versions.MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if manifest.get("build_id") == wanted:
            versions.point(report_dir, version)
            return [(p["venue"], report_dir / p["file"]) for p in manifest.get("pages", [])]
    return None


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
