"""The file side of the CSV export: a staging folder, the manifest, the swap into place.

The CSVs are written with DuckDB's COPY (`paperrank.publish.category_csvs`); DuckDB cannot make a
folder's contents appear at once, so `staging_folder` gives the export an empty temporary folder
beside the exports, and `finish_export` adds the manifest (settings, row counts, checksums),
makes everything durable and swaps the folder in whole (`paperrank.publish.versions`).
"""

from __future__ import annotations

import hashlib
import json
import os
from datetime import UTC, datetime
from pathlib import Path

from paperrank.core.errors import PaperrankError
from paperrank.publish import versions

BOM = "\ufeff".encode()
MANIFEST = versions.MANIFEST


def claim(out_dir: Path, create: bool = True) -> None:
    """Refuse an export folder the project did not write (`versions.claim`): a user's folder
    (whatever manifest it holds), a plain file, the checkout, a folder holding other exports,
    the published warehouse."""
    versions.claim(out_dir, "exports", None, "EXPORT_DIR", create)


def staging_folder(out_dir: str) -> str:
    """An empty temporary folder in `<out_dir>.versions/`, named after this process."""
    claim(Path(out_dir))
    folder = versions.versions_dir(Path(out_dir))
    versions.prune(Path(out_dir))
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
    staged = folder / f"{versions.TMP_PREFIX}{os.getpid()}-{stamp}"
    staged.mkdir()
    return str(staged)


def discard(staged: Path) -> None:
    """Remove a staged export that will not be finished (the previous export stays)."""
    versions._remove(staged)


def finish_export(staged: str, out_dir: str, manifest_json: str, bom: bool) -> str:
    """Complete the staged export and make `out_dir` point at it; return a summary line.

    Every file the manifest names must be in the folder and hold its rows plus a header;
    nothing else may be there, so a category no longer ranked cannot leave a file behind.
    """
    folder, link = Path(staged), Path(out_dir)
    manifest = json.loads(manifest_json)
    if isinstance(manifest.get("build_settings"), str):
        manifest["build_settings"] = json.loads(manifest["build_settings"])
    names = {f["file"] for f in manifest["files"]}
    present = {p.name for p in folder.iterdir()}
    if present != names:
        raise PaperrankError(f"staged export {folder} holds {sorted(present)}, expected {sorted(names)}")
    for entry in manifest["files"]:
        path = folder / entry["file"]
        if bom:
            path.write_bytes(BOM + path.read_bytes())
        data = path.read_bytes()
        entry["bytes"] = len(data)
        entry["sha256"] = hashlib.sha256(data).hexdigest()
    settings = manifest.get("build_settings") or {}
    manifest["exported_at"] = datetime.now(UTC).isoformat(timespec="seconds")
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n",
                                   encoding="utf-8")
    build_id = str(settings.get("build_id") or "unknown")
    final = versions.install(link, folder, versions.version_name(build_id), None)
    rows = sum(int(f["rows"]) for f in manifest["files"])
    return (f"exported {len(names)} categories ({rows} papers) of build {build_id} to {link} "
            f"(-> {final.name})")
