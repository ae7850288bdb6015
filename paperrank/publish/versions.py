"""Atomic switches between complete versions of a file or folder, through a symbolic link.

Readers open `link` (the published warehouse, the exports folder, the report folder); it
always points at one complete version in `<link>.versions/`.  A new version is written beside
the others under a temporary name, made durable (fsync), made read-only, renamed to its final
name, and only then does `link` change, by `os.replace` of a new symbolic link: one atomic
rename.  A process killed at any point leaves `link` on the previous version or on the new
one, never on anything in between.  A reader that opened the previous version keeps its open
file, so it keeps reading that build consistently.

The project moves, replaces or deletes only what it wrote (`claim`, before anything is moved
or removed):
- a versions folder it made holds a marker file (`MARKER`, naming the link and its kind); a
  versions folder without one, or whose marker names another link or kind, is refused;
- a link is replaced only when it points at a version in its own versions folder;
- managed paths never nest: none inside another's versions folder (a resolved parent inside a
  marked versions folder), none over a folder holding other managed paths;
- an existing plain folder at `link` is never adopted: it is refused, naming it and saying to
  move it away.  Only a plain published warehouse of the single-file layout is adopted, as
  the first version, and only when the caller's `legacy` test recognises it strictly and no
  versions folder has been started beside it.

Why folders are never adopted.  A folder was adopted when it "looked like" an old
export (a `manifest.json` listing exactly its files) or an old report (pages carrying the
report's generator tag); a user's folder with a `manifest.json` naming `thesis.txt`, used as
EXPORT_DIR, became a version and was deleted five exports later.  Whatever a recognition test
reads in a plain folder (a manifest's fields, each file's sha256, a tag), a user's file can
carry too: a copied page, another tool's manifest, a hand-made one; hashes only prove that the
manifest matches the files, not who wrote them.  The marker that cannot be met by accident is
the layout only the project makes: a `<link>.versions/` folder holding `MARKER`, and `link` a
symbolic link to a version inside it (each export and report version also carries a manifest
with the build id and every file's sha256).  Nothing is lost by refusing: exports and reports
are drawn from the published warehouse, and the next run writes them again after the old
folder is moved away (`mv exports/x exports/x.old`).  The single-folder export that an older
paperrank wrote (CSVs without a manifest) was never adopted either; from the day manifests
were written, exports were versioned behind a link.  A published warehouse is different: an
old build may exist nowhere else, and rollback should reach it, so a plain file is adopted,
but only when it holds nothing but what a publication holds (tables of the project's marts and
seeds and the rejected records, one build id, the rankings): a DuckDB file with anything of
the user's in it is refused.

Links are relative to the link's resolved parent, so they open wherever the link is made,
symbolically linked parents included.  The versions folder's publication history
(`HISTORY`, a stack) says what was published in which order: publish pushes, rollback pops,
so a withdrawn build is never published again by a later rollback.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from paperrank.core.disk import one_line_when_full
from paperrank.core.errors import PaperrankError

TMP_PREFIX = ".tmp-"
KEEP = 5
MARKER = ".paperrank-versions.json"
HISTORY = ".paperrank-history.json"
# per venue, its published builds and the versions holding them (paperrank.publish.venue_history)
VENUE_HISTORY = ".paperrank-venues.json"
MANIFEST = "manifest.json"
# `<UTC time>_<build id prefix>[.duckdb]`: the only names that are versions
VERSION = re.compile(r"[0-9]{8}T[0-9]{12}Z_[A-Za-z0-9]{1,8}(\.duckdb)?")
READ_ONLY_FILE, READ_ONLY_DIR = 0o444, 0o555


class NotOurs(PaperrankError):
    """A target the project did not write: it is left alone, and the message says what to do."""


def real(link: Path) -> Path:
    """`link` with its parent resolved, the link itself not followed."""
    return Path(os.path.realpath(link.parent)) / link.name


def versions_dir(link: Path) -> Path:
    """Where the versions behind `link` live: `<link>.versions/` beside it (resolved)."""
    return Path(os.path.realpath(link.parent)) / f"{link.name}.versions"


def version_name(build_id: str, suffix: str = "") -> str:
    """A name that sorts by time: `<UTC time>_<build id prefix><suffix>`."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    prefix = re.sub(r"[^A-Za-z0-9]", "", build_id)[:8] or "unknown"
    return f"{stamp}_{prefix}{suffix}"


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


def _marker(folder: Path) -> dict | None:
    try:
        data = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _target(link: Path) -> Path:
    return Path(os.path.realpath(link))


def current(link: Path) -> Path | None:
    """The version `link` points at, or None when it is not a link into its versions folder."""
    if not link.is_symlink():
        return None
    target = _target(link)
    return target if target.parent == versions_dir(link) else None


def well_formed(version: Path) -> bool:
    """A complete publication: a version name, and a DuckDB file or a folder with a manifest."""
    if not VERSION.fullmatch(version.name) or version.is_symlink():
        return False
    if version.name.endswith(".duckdb"):
        return version.is_file()
    return version.is_dir() and (version / MANIFEST).is_file()


def listing(link: Path) -> list[Path]:
    """Complete versions behind `link`, oldest first; anything else there is not a version."""
    folder = versions_dir(link)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if well_formed(p))


def claim(link: Path, kind: str, legacy: Callable[[Path], bool] | None, what: str,
          create: bool = True) -> None:
    """Make sure `link` is the project's to manage as `kind`, or raise NotOurs (one line that
    says what to do); nothing is moved or removed before this has passed.

    `legacy(path)` recognises the one older layout `install` may adopt (a plain published
    file); with None a plain file or folder at `link` is always refused.  `what` names the
    setting, for the message.  With `create`, the versions folder and its marker are made."""
    folder = versions_dir(link)
    shown = f"{link} ({what})"
    for parent in real(link).parents:
        mark = _marker(parent) if parent.name.endswith(".versions") else None
        if mark is not None:
            raise NotOurs(f"{shown} is inside {parent}, the versions of a managed "
                          f"{mark.get('kind')} folder; choose a path outside it")
    mark = _marker(folder)
    if mark is not None and mark.get("kind") != kind:
        raise NotOurs(f"{shown} is already the {mark.get('kind')} path; give each its own path")
    if mark is not None and mark.get("link") != link.name:
        raise NotOurs(f"{folder} belongs to {mark.get('link')!r}, not to {shown}; move it away "
                      "or choose another path")
    if link.is_symlink():
        target = _target(link)
        if target.parent != folder or not VERSION.fullmatch(target.name) or (
                mark is None and not well_formed(target)):
            raise NotOurs(f"{shown} is a symbolic link to {target}, which paperrank did not "
                          "make; remove the link or choose another path")
    elif link.exists():
        if legacy is None or not _adoptable(link, legacy, mark is not None):
            held = _managed_inside(link)
            why = (f"it holds the managed {held}" if held else
                   "paperrank did not write it (paperrank adopts no existing folder, not even "
                   "one an older paperrank wrote: the next run writes it again)")
            raise NotOurs(f"{shown} already exists and {why}; nothing was moved: choose "
                          "another path, or move it away first")
    elif folder.exists() and mark is None:
        raise NotOurs(f"{folder} exists but paperrank did not make it; move it away or choose "
                      f"another path than {shown}")
    if create:
        folder.mkdir(parents=True, exist_ok=True)
        if mark is None:
            _write_json(folder / MARKER, {"kind": kind, "link": link.name})


def _adoptable(link: Path, legacy: Callable[[Path], bool], marked: bool) -> bool:
    """A plain file at `link` of the older layout, with no versions begun beside it (a
    versions folder with versions means the link was replaced by something else)."""
    folder = versions_dir(link)
    begun = folder.exists() and (not marked or listing(link) != [])
    return not begun and legacy(link)


def _managed_inside(folder: Path) -> str | None:
    if not folder.is_dir() or folder.is_symlink():
        return None
    try:
        for child in folder.iterdir():
            if child.name.endswith(".versions") and _marker(child) is not None:
                return str(folder / child.name.removesuffix(".versions"))
    except OSError:
        return None
    return None


def adopt_legacy(link: Path, legacy: Callable[[Path], bool] | None) -> None:
    """A plain file at `link` of the older layout becomes the first version (and the first
    entry of the history); anything else is refused by `claim`, never moved."""
    if legacy is None or link.is_symlink() or not link.exists() or not legacy(link):
        return
    folder = versions_dir(link)
    name = version_name("legacy00", ".duckdb" if link.is_file() else "")
    os.rename(link, folder / name)
    _read_only(folder / name)
    _write_history(folder, [n for n in history(link) if n != name] + [name])
    fsync_path(folder)


def history(link: Path) -> list[str]:
    """The publication history behind `link`, oldest first, ending with the current version.

    The stack on disk is reconciled with the link: a run killed between writing the history
    and switching the link leaves them apart, and the link is what readers see.  A versions
    folder from before the history existed starts from its versions in name order."""
    folder = versions_dir(link)
    try:
        names = json.loads((folder / HISTORY).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        names = None
    present = {p.name for p in listing(link)}
    active = current(link)
    if not isinstance(names, list):
        names = sorted(present)
        if active is not None and active.name in names:
            names = names[:names.index(active.name) + 1]
    names = list(dict.fromkeys(n for n in names if isinstance(n, str) and n in present))
    if active is not None:
        if active.name in names:
            names = names[:len(names) - names[::-1].index(active.name)]
        else:
            names.append(active.name)
    return names


def point(link: Path, version: Path) -> None:
    """Make `link` point at `version` in one atomic rename, and make that durable.

    The link's text is relative to the link's resolved parent, so it opens however the
    parent was reached (a symbolic link to another disk included)."""
    parent = Path(os.path.realpath(link.parent))
    staged = link.parent / f".{link.name}.{os.getpid()}.link"
    if staged.is_symlink() or staged.exists():
        staged.unlink()
    os.symlink(os.path.relpath(version, parent), staged)
    os.replace(staged, link)
    fsync_path(link.parent)


def install(link: Path, staged: Path, name: str, legacy: Callable[[Path], bool] | None,
            keep: int = KEEP) -> Path:
    """Make the complete `staged` file or folder the version `name` and point `link` at it.

    `staged` must already be in the versions folder (a rename never crosses file systems).
    The version is made read-only; the history gets it on top; the `keep` latest entries of
    the history stay, and always the one `link` points at."""
    folder = versions_dir(link)
    _read_only(staged)
    fsync_path(staged)
    final = folder / name
    os.rename(staged, final)
    fsync_path(folder)
    adopt_legacy(link, legacy)
    _write_history(folder, [n for n in history(link) if n != name] + [name])
    point(link, final)
    prune(link, keep)
    return final


@dataclass(frozen=True)
class NewVersion:
    """The next version of the folder `link` (`claim`ed as `kind`; `what` names its setting):
    `write` fills an empty folder with `content` and returns the build id the version is
    named after; `kept` says what stays when the disk refuses it."""

    link: Path
    kind: str
    what: str
    write: Callable[[Path], str]
    content: str
    kept: str


def write_versions(*new: NewVersion) -> list[Path]:
    """Each folder's new version, written whole before any is switched in (`install`), so a
    venue's CSVs and page change together: a failure while writing any of them leaves every
    link on its previous version, and removes the temporary folders. A disk that refuses a
    write (full, read-only, a folder gone) is one line naming the folder and its content."""
    for version in new:
        claim(version.link, version.kind, None, version.what)
        prune(version.link)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
    folders: list[Path] = []
    names: list[str] = []
    try:
        for version in new:
            folders.append(versions_dir(version.link) / f"{TMP_PREFIX}{os.getpid()}-{stamp}")
            with one_line_when_full(version.link, version.content, version.kept):
                folders[-1].mkdir()
                names.append(version_name(version.write(folders[-1])))
        return [install(version.link, folder, name, None)
                for version, folder, name in zip(new, folders, names, strict=True)]
    except BaseException:
        for folder in folders:
            _remove(folder)  # one already installed was renamed away: nothing to remove
        raise


def prune(link: Path, keep: int = KEEP) -> None:
    """Delete the versions outside the `keep` latest entries of the history (never the
    current one), and temporaries of processes that are gone; nothing else is touched."""
    folder = versions_dir(link)
    if not folder.is_dir() or _marker(folder) is None:
        return
    active = current(link)
    kept = set(history(link)[-keep:]) if keep > 0 else set()
    kept |= pinned(folder, keep)
    for old in listing(link):
        if old.name not in kept and old != active:
            _remove(old)
    for tmp in folder.glob(f"{TMP_PREFIX}*"):
        pid = tmp.name.removeprefix(TMP_PREFIX).split("-")[0]
        if pid.isdigit() and int(pid) != os.getpid() and not Path(f"/proc/{pid}").exists():
            _remove(tmp)


def pinned(folder: Path, keep: int) -> set[str]:
    """The versions that hold one of a venue's `keep` latest published builds
    (`VENUE_HISTORY`): kept, so each venue's previous build survives other venues' publications."""
    try:
        data = json.loads((folder / VENUE_HISTORY).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    names: set[str] = set()
    for entries in (data.values() if isinstance(data, dict) else []):
        if isinstance(entries, list) and keep > 0:
            names |= {e["version"] for e in entries[-keep:]
                      if isinstance(e, dict) and isinstance(e.get("version"), str)}
    return names


def _write_json(path: Path, data: object) -> None:
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    fsync_path(tmp)
    os.replace(tmp, path)


def _write_history(folder: Path, names: list[str]) -> None:
    _write_json(folder / HISTORY, names)


def _read_only(path: Path) -> None:
    """Publications are never written again: files 0444, folders 0555."""
    if path.is_dir() and not path.is_symlink():
        for child in path.iterdir():
            if child.is_file() and not child.is_symlink():
                child.chmod(READ_ONLY_FILE)
        path.chmod(READ_ONLY_DIR)
    elif path.is_file():
        path.chmod(READ_ONLY_FILE)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        for folder, _, _ in os.walk(path):
            os.chmod(folder, stat.S_IRWXU)
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)
