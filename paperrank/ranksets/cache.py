"""The SQL of `paperrank rank-sets`, rendered from the macros once per version of its sources and
kept outside git, in a folder named after a hash of those sources.

The command runs the rank-set models' own SQL (macros/rank_sets/) without paying a parse of the
dbt project on every run, so the rendered text is cached. Nothing rendered is committed: the
macros are its one source. Every run hashes the sources again (the project's macros, its
dbt_project.yml, the renderer and the dbt versions that render them, a few milliseconds), so a
cache that a change of a macro made stale is never read: its folder has another name, and the
SQL is rendered again (a dbt parse, seconds) into the new one. `make setup` renders it ahead of
the first run.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
from importlib import metadata
from pathlib import Path

from paperrank.ranksets import render

# The gitignored folder the rendered SQL lives in, one subfolder per hash of its sources.
CACHE = render.REPO / ".cache" / "rank-sets"
# the dbt distributions whose macros and parser take part in the rendering
RENDERERS = ("dbt-core", "dbt-duckdb")


def sources_key(root: Path = render.REPO) -> str:
    """A hash of everything the rendered SQL follows from: every file under the project's macros/
    (names and bytes), its dbt_project.yml (vars), the renderer's own code and dbt's versions."""
    digest = hashlib.sha256()
    files = sorted(path for path in (root / "macros").rglob("*") if path.is_file())
    for path in [*files, root / "dbt_project.yml", Path(render.__file__)]:
        name = path.relative_to(root) if path.is_relative_to(root) else Path(path.name)
        digest.update(f"{name.as_posix()}\0{path.stat().st_size}\0".encode())
        digest.update(path.read_bytes())
    for distribution in RENDERERS:
        digest.update(f"{distribution}=={metadata.version(distribution)}\0".encode())
    return digest.hexdigest()[:24]


def compiled(root: Path = render.REPO, cache: Path = CACHE) -> Path:
    """The folder of the SQL rendered from `root`'s macros as they are now, rendered first when
    no folder holds it. Another version's folder is removed once the new one is in place."""
    folder = cache / sources_key(root)
    if folder.is_dir():
        return folder
    files = render.render_files(root)
    cache.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=".partial-", dir=cache))
    try:
        for name, text in files.items():
            (partial / name).write_text(text, encoding="utf-8")
        try:
            os.rename(partial, folder)
        except OSError:
            if not folder.is_dir():  # another process's rendering took the name first: the same text
                raise
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    for stale in cache.iterdir():
        if stale.is_dir() and stale != folder and not stale.name.startswith("."):
            shutil.rmtree(stale, ignore_errors=True)
    return folder


def main() -> None:
    """`python -m paperrank.ranksets.cache` (`make setup`): render the SQL now unless it is cached."""
    try:
        if not (CACHE / sources_key()).is_dir():
            print(f"rendered the rank-sets SQL from macros/ into {compiled()}")
    except render.RenderFailed as error:
        sys.exit(f"error: rank-sets SQL not rendered: {error}")


if __name__ == "__main__":
    main()
