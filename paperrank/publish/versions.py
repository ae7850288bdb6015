"""Atomic switches between complete versions of a file or folder, through a symbolic link.

Readers open `link` (the published warehouse, the exports folder); it always points at one
complete version in `<link>.versions/`.  A new version is written beside the others under a
temporary name, made durable (fsync), renamed to its final name, and only then does `link`
change, by `os.replace` of a new symbolic link: one atomic rename.  A process killed at any
point leaves `link` on the previous version or on the new one, never on anything in between.
A reader that opened the previous version keeps its open file, so it keeps reading that
build consistently.
"""

from __future__ import annotations

import os
import shutil
from datetime import UTC, datetime
from pathlib import Path

TMP_PREFIX = ".tmp-"
KEEP = 5


def versions_dir(link: Path) -> Path:
    """Where the versions behind `link` live: `<link>.versions/` beside it."""
    return link.parent.resolve() / f"{link.name}.versions"


def version_name(build_id: str, suffix: str = "") -> str:
    """A name that sorts by time: `<UTC time>_<build id prefix><suffix>`."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    return f"{stamp}_{build_id[:8]}{suffix}"


def fsync_path(path: Path) -> None:
    """Flush a file, or every file of a folder and the folder itself, to disk."""
    if path.is_dir():
        for child in path.iterdir():
            if child.is_file():
                fsync_path(child)
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def current(link: Path) -> Path | None:
    """The version `link` points at, or None when it is not a link into its versions folder."""
    if not link.is_symlink():
        return None
    target = (link.parent / os.readlink(link)).resolve()
    return target if target.parent == versions_dir(link).resolve() else None


def listing(link: Path) -> list[Path]:
    """Complete versions behind `link`, oldest first (temporary ones are not versions)."""
    folder = versions_dir(link)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if not p.name.startswith((TMP_PREFIX, ".")))


def adopt_legacy(link: Path) -> None:
    """A plain file or folder at `link` (an older layout) becomes its first version."""
    if link.exists() and not link.is_symlink():
        folder = versions_dir(link)
        folder.mkdir(parents=True, exist_ok=True)
        os.rename(link, folder / version_name("legacy00", link.suffix if link.is_file() else ""))
        fsync_path(folder)


def point(link: Path, version: Path) -> None:
    """Make `link` point at `version` in one atomic rename, and make that durable."""
    staged = link.parent / f".{link.name}.{os.getpid()}.link"
    if staged.is_symlink() or staged.exists():
        staged.unlink()
    os.symlink(os.path.relpath(version, link.parent), staged)
    os.replace(staged, link)
    fsync_path(link.parent)


def install(link: Path, staged: Path, name: str, keep: int = KEEP) -> Path:
    """Make the complete `staged` file or folder the version `name` and point `link` at it.

    `staged` must already be in the versions folder (a rename never crosses file systems).
    Keeps the `keep` newest versions, and always the one `link` points at.
    """
    folder = versions_dir(link)
    fsync_path(staged)
    final = folder / name
    os.rename(staged, final)
    fsync_path(folder)
    adopt_legacy(link)
    point(link, final)
    prune(link, keep)
    return final


def prune(link: Path, keep: int = KEEP) -> None:
    """Delete all but the `keep` newest versions (never the current one), and stale temporaries.

    A temporary left by a killed run is removed only when its process is gone."""
    active = current(link)
    for old in listing(link)[:-keep] if keep > 0 else []:
        if old != active:
            _remove(old)
    folder = versions_dir(link)
    for tmp in folder.glob(f"{TMP_PREFIX}*") if folder.is_dir() else []:
        pid = tmp.name.removeprefix(TMP_PREFIX).split("-")[0]
        if pid.isdigit() and int(pid) != os.getpid() and not Path(f"/proc/{pid}").exists():
            _remove(tmp)


def previous(link: Path) -> Path | None:
    """The version before the current one, or None when there is none."""
    versions = listing(link)
    active = current(link)
    if active not in versions:
        return None
    index = versions.index(active)
    return versions[index - 1] if index > 0 else None


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)
