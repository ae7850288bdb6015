"""`.gitignore` covers the managed links and their versions folders.

`/exports/` matched the folder only: once `exports` became a symbolic link, `git status`
showed it and its `.versions/` folder, and `git add -A` would commit megabytes of CSVs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from project import REPO


def test_managed_links_and_versions_are_ignored(tmp_path: Path) -> None:
    shutil.copy(REPO / ".gitignore", tmp_path / ".gitignore")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    for link, version in (("exports", "20261201T000000000000Z_abcd1234"),
                          ("output/report", "20261201T000000000000Z_abcd1234"),
                          ("warehouse/published.duckdb", "20261201T000000000000Z_abcd1234.duckdb")):
        path = tmp_path / link
        folder = path.with_name(f"{path.name}.versions")
        folder.mkdir(parents=True)
        target = folder / version
        if version.endswith(".duckdb"):
            target.write_bytes(b"db")
        else:
            target.mkdir()
            (target / "agentic-ai.csv").write_text("a,b\n", encoding="utf-8")
        os.symlink(os.path.relpath(target, path.parent), path)
        (path.parent / f".{path.name}.123.link").symlink_to(target)  # a staged link
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"],
                            cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert status.splitlines() == ["?? .gitignore"], status
