"""The suite's library of warehouses: each data shape built once per session, for every worker.

`make test` runs pytest on both cores (pytest-xdist). A session fixture runs once per worker, so
without this library each worker would build the ICLR 2026 warehouse, the synthetic venue and the
small venues again. Here a warehouse is built by the first worker that asks for it, under a file
lock in the folder the session's workers share; the others wait for it and then read the same
files. What the library holds is read-only for everyone: a test that writes takes a copy
(`project.warehouse_copy`). A build that fails is recorded, so the other workers fail at once
with its traceback instead of building it again.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

BUILT = ".built"


def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The library's folder: shared by the session's xdist workers (their base temporary folders
    are siblings), or the session's own base folder without xdist."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "library"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """An exclusive advisory lock on `path` (made if missing), held while the block runs."""
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def built(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    """The folder of the library's warehouse `name`, built by `build(folder)` the first time any
    worker of the session asks for it."""
    shelf = root(tmp_path_factory)
    folder, failed = shelf / name, shelf / f"{name}.failed"
    with locked(shelf / f"{name}.lock"):
        if (folder / BUILT).exists():
            return folder
        if failed.exists():
            raise AssertionError(f"the library warehouse {name} failed to build in another "
                                 f"worker:\n{failed.read_text(encoding='utf-8')}")
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        try:
            build(folder)
        except BaseException:
            failed.write_text(traceback.format_exc(), encoding="utf-8")
            raise
        (folder / BUILT).touch()
    return folder
