"""The file side of the CSV export: the manifest, and the folder swapped into place whole.

The CSVs are written with DuckDB's COPY (`paperrank.publish.category_csvs`); DuckDB cannot make
a folder's contents appear at once, so `write_export` hands the writer an empty temporary folder
in the exports' versions folder, adds the manifest (settings, row counts, checksums) and swaps
the folder in whole (`paperrank.publish.versions.write_version`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
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


def write_export(out_dir: Path, manifest: dict[str, Any], bom: bool,
                 write_csvs: Callable[[Path], None]) -> str:
    """A new version of `out_dir`: `write_csvs` fills an empty folder with the files `manifest`
    lists, the manifest is completed and written, and the folder switched in; a summary line.

    Every file the manifest names must be in the folder and hold its rows plus a header;
    nothing else may be there, so a category no longer ranked cannot leave a file behind.
    """
    names = {f["file"] for f in manifest["files"]}
    settings = manifest.get("build_settings") or {}
    build_id = str(settings.get("build_id") or "unknown")

    def write(folder: Path) -> str:
        write_csvs(folder)
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
        return build_id

    final = versions.write_version(out_dir, "exports", "EXPORT_DIR", write)
    rows = sum(int(f["rows"]) for f in manifest["files"])
    return (f"exported {len(names)} categories ({rows} papers) of build {build_id} to {out_dir} "
            f"(-> {final.name})")
