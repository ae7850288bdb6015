"""Immutable, timestamped snapshots of what the OpenReview API returned.

A snapshot is the evidence a ranking was built from, so it is written once and never
changed: the notes go to a temporary file first and are then hard-linked into place, which
fails instead of overwriting if the name is taken.  The UTC time of the fetch is part of the
file name (`<venue-slug>_<YYYYmmddTHHMMSSffffff>Z.jsonl.gz`), which is how a later load knows
which snapshot is newer.
"""

from __future__ import annotations

import gzip
import json
import os
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from paperrank.core.errors import PaperrankError, SnapshotExists

DEFAULT_ROOT = Path("snapshots")
_STAMP_FORMAT = "%Y%m%dT%H%M%S%fZ"
_STAMP = re.compile(r"_(\d{8}T\d{12}Z)\.jsonl(?:\.gz)?$")


def venue_slug(venue_id: str) -> str:
    """A file-system-safe name: "ICLR.cc/2026/Conference" -> "iclr-cc-2026-conference"."""
    slug = re.sub(r"[^a-z0-9]+", "-", venue_id.lower()).strip("-")
    if not slug:
        raise PaperrankError(f"venue id {venue_id!r} has no letters or digits")
    return slug


def default_dir(venue_id: str) -> Path:
    return DEFAULT_ROOT / venue_slug(venue_id)


def snapshot_path(directory: Path, venue_id: str, taken_at: datetime) -> Path:
    stamp = taken_at.astimezone(UTC).strftime(_STAMP_FORMAT)
    return Path(directory) / f"{venue_slug(venue_id)}_{stamp}.jsonl.gz"


def snapshot_time(path: Path | str) -> datetime | None:
    """The fetch time written into a snapshot's file name, or None for other files."""
    match = _STAMP.search(Path(path).name)
    if not match:
        return None
    return datetime.strptime(match.group(1), _STAMP_FORMAT).replace(tzinfo=UTC)


def write_snapshot(notes: Iterable[dict[str, Any]], directory: Path, venue_id: str,
                   taken_at: datetime) -> tuple[Path, int]:
    """Write the notes, one JSON object a line, exactly as received; return (path, count).

    The file appears under its final name only when complete, and never replaces an
    existing snapshot.
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    final = snapshot_path(directory, venue_id, taken_at)
    if final.exists():
        raise SnapshotExists(f"snapshot {final} already exists; snapshots are never overwritten")
    partial = final.with_name(f".{final.name}.{os.getpid()}.partial")
    count = 0
    try:
        with gzip.open(partial, "wt", encoding="utf-8") as handle:
            for note in notes:
                handle.write(json.dumps(note, ensure_ascii=False, separators=(",", ":")))
                handle.write("\n")
                count += 1
        try:
            os.link(partial, final)
        except FileExistsError:
            raise SnapshotExists(
                f"snapshot {final} already exists; snapshots are never overwritten"
            ) from None
        os.chmod(final, 0o444)
    finally:
        partial.unlink(missing_ok=True)
    return final, count
