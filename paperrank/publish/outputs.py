"""Where a venue's outputs go: the one place that derives them from the venue.

An operator ranks many venues with one set of defaults. Each venue's CSVs go to a folder of its
own (`exports/<slug>/`) and its report page to a folder of its own (`output/report/<slug>/`),
with an index page beside them (`output/report/index.html`) listing every venue's page; the
published warehouse holds every venue (`paperrank.publish.publication`). So ranking, exporting or
rolling back one venue never removes, hides or changes another's files. A folder given
explicitly (EXPORT_DIR, REPORT_DIR, `--export-dir`, `--report-dir`) is used as it is, as before:
that venue's outputs, and no index.

The slug is the venue's name in lower case, every run of other characters one dash: "ICLR 2026"
-> `iclr-2026`. Two venues whose names give the same slug would share folders: each folder's
versions remember the venue they hold (`claim`), and the second venue is refused.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from paperrank.core import config
from paperrank.core.errors import PaperrankError
from paperrank.publish import versions

VENUE_FILE = ".paperrank-venue.json"  # in a venue's versions folder: the venue it holds


def slug(venue: str) -> str:
    """The venue's folder name: lower-case letters and digits, runs of anything else one dash."""
    text = re.sub(r"[^a-z0-9]+", "-", venue.casefold()).strip("-")
    return text[:80].strip("-") or "venue"


def export_root() -> Path:
    return config.DEFAULT_EXPORT_DIR


def report_root() -> Path:
    return config.DEFAULT_REPORT_DIR


def export_dir(venue: str, explicit: Path | None) -> Path:
    """The venue's CSV folder: `explicit` when given, else `exports/<slug>`."""
    return explicit if explicit is not None else export_root() / slug(venue)


def report_dir(venue: str, explicit: Path | None) -> Path:
    """The venue's report folder: `explicit` when given, else `output/report/<slug>`."""
    return explicit if explicit is not None else report_root() / slug(venue)


def check(link: Path, venue: str) -> None:
    """Refuse a folder that holds another venue's outputs (two names, one slug)."""
    held = _held(link)
    if held is not None and held != venue:
        raise PaperrankError(f"{link} holds the outputs of venue {held!r}, whose name gives the same "
                             f"folder as {venue!r}; set EXPORT_DIR / REPORT_DIR for one of them")


def remember(venue: str, *links: Path) -> None:
    """Record in each folder's versions which venue it holds (once it has a first version)."""
    for link in links:
        _record(venue, versions.versions_dir(link) / VENUE_FILE)


def _held(link: Path) -> str | None:
    return _venue_in(versions.versions_dir(link) / VENUE_FILE)


def _record(venue: str, file: Path) -> None:
    if file.parent.is_dir() and _venue_in(file) is None:
        file.write_text(json.dumps({"venue": venue}) + "\n", encoding="utf-8")


def _venue_in(file: Path) -> str | None:
    try:
        held = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    venue = held.get("venue") if isinstance(held, dict) else None
    return venue if isinstance(venue, str) else None
