"""Where a delivery writes, checked before anything runs: the project's own paths, apart.

A run that would write the published warehouse, a venue's CSVs or its page into a folder the
project did not make, into another venue's folder, into one another, or onto a read-only disk
is refused before the build, in one line (PaperrankError, exit 2), rather than after the
publish has switched and the export fails.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from paperrank.core.errors import PaperrankError
from paperrank.core.warehouse import db_path, open_duckdb
from paperrank.publish import export_files, outputs, publication, report_files, versions


@dataclass(frozen=True)
class Destination:
    """Where a venue's delivery goes besides the published warehouse: its CSVs folder and its
    report folder (`index`: the report root's index lists the page, when the folder is the
    venue's own), with the CSVs' byte order mark and the page's options (the pick quota)."""

    venue: str
    exports: Path
    reports: Path
    index: bool
    bom: bool = False
    report_options: dict[str, float] = field(default_factory=dict)

    @classmethod
    def checked(cls, venue: str, export_dir: Path | None = None, report_dir: Path | None = None,
                bom: bool = False, **report_options: float) -> Destination:
        """The venue's folders (the given ones, else its own under exports/ and output/report/),
        refused before anything runs when they are not the project's, the venue's and apart."""
        exports, reports = outputs.export_dir(venue, export_dir), outputs.report_dir(venue, report_dir)
        check_targets(exports, reports, venue)
        return cls(venue, exports, reports, report_dir is None, bom, dict(report_options))


def check_targets(export_dir: Path, report_dir: Path, venue: str) -> None:
    """The paths the run will write are the project's own, the venue's, and apart from each
    other and from the working warehouse, and the published file is free."""
    published, working = publication.published_path(), db_path()
    outputs.check(export_dir, venue)
    outputs.check(report_dir, venue)
    publication.claim(published, create=False)
    export_files.claim(export_dir, create=False)
    report_files.claim(report_dir, create=False)
    paths = {"PAPERRANK_PUBLISHED_DB": published, "EXPORT_DIR": export_dir,
             "REPORT_DIR": report_dir, "PAPERRANK_DB": working}
    real = {name: versions.real(path) for name, path in paths.items()}
    names = list(real)
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            a, b = real[first], real[second]
            for one, other, x, y in ((first, second, a, b), (second, first, b, a)):
                inside = [x, x.with_name(f"{x.name}.versions")]
                if any(y == p or p in y.parents for p in inside) and one != "PAPERRANK_DB":
                    raise PaperrankError(f"{other}={paths[other]} is {'' if y == x else 'inside '}"
                                         f"{one}={paths[one]}; give each its own path")
    for name in ("PAPERRANK_PUBLISHED_DB", "EXPORT_DIR", "REPORT_DIR"):
        check_writable_folder(name, paths[name])
    if published.exists():
        check_writable_by_readers(published)


def check_writable_folder(name: str, target: Path) -> None:
    """The folder a target's versions go in can be written (a read-only disk or a folder
    without write permission is refused before the build, not after the publish)."""
    folder = versions.versions_dir(target)
    while not folder.exists() and folder.parent != folder:
        folder = folder.parent
    if not os.access(folder, os.W_OK):
        raise PaperrankError(f"{name}={target} cannot be written: {folder} is read-only or not "
                             "writable; choose another folder")


def check_writable_by_readers(published: Path) -> None:
    """An analyst's read-write connection to the published file blocks the export and the
    report (they open it read-only): refuse before publishing, with the one-line lock message."""
    open_duckdb(published, read_only=True).close()
