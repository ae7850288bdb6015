"""The file side of the CSV export: the manifest, and the folder swapped into place whole.

The CSVs are written with DuckDB's COPY (`paperrank.publish.category_csvs`) into an empty
temporary folder in the exports' versions folder; DuckDB cannot make a folder's contents appear
at once, so `complete` adds the manifest (settings, row counts, checksums) and
`paperrank.publish.versions.write_versions` swaps the folder in whole.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from paperrank.core.errors import PaperrankError
from paperrank.publish import versions

BOM = "\ufeff".encode()
MANIFEST = versions.MANIFEST


def claim(out_dir: Path, create: bool = True) -> None:
    """Refuse an export folder the project did not write (`versions.claim`): a user's folder
    (whatever manifest it holds), a plain file, the checkout, a folder holding other exports,
    the published warehouse."""
    versions.claim(out_dir, "exports", None, "EXPORT_DIR", create)


def complete(folder: Path, manifest: dict[str, Any], bom: bool) -> str:
    """Complete the export in `folder` (the CSVs `manifest` lists, already written): the byte
    order mark when asked for, each file's size and sha256, the manifest itself; the build id
    the version is named after.

    Every file the manifest names must be in the folder and hold its rows plus a header;
    nothing else may be there, so a category no longer ranked cannot leave a file behind.
    """
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
    manifest["exported_at"] = datetime.now(UTC).isoformat(timespec="seconds")
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n",
                                   encoding="utf-8")
    settings = manifest.get("build_settings") or {}
    return str(settings.get("build_id") or "unknown")


def summary(out_dir: Path, version: Path) -> str:
    """The line that says what the export `version` of `out_dir` holds, from its manifest."""
    manifest = json.loads((version / MANIFEST).read_text(encoding="utf-8"))
    files = manifest["files"]
    build_id = (manifest.get("build_settings") or {}).get("build_id") or "unknown"
    rows = sum(int(f["rows"]) for f in files)
    return (f"exported {len(files)} categories ({rows} papers) of build {build_id} to {out_dir} "
            f"(-> {version.name})")
