"""Run the project's real commands (loaders, dbt) against a throw-away warehouse.

Tests never touch the default warehouse: each gets its own DuckDB file and its own dbt
target and log folders, so tests can run while an operator's warehouse is in use.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
ICLR = SHARED / "data" / "iclr2026"
BIN = Path(sys.executable).parent


def copy_project(root: Path) -> Path:
    """A copy of the dbt project (models, macros, seeds, tests, settings) to break on purpose."""
    for name in ("models", "macros", "seeds", "tests"):
        shutil.copytree(REPO / name, root / name, ignore=shutil.ignore_patterns("python"))
    for name in ("dbt_project.yml", "profiles.yml"):
        shutil.copy(REPO / name, root / name)
    return root


def require_shared(path: Path) -> Path:
    """Skip (with the reason printed) when the shared data is not beside the repo."""
    if not path.exists():
        pytest.skip(f"shared data not found at {path}")
    return path


class Project:
    """The repository's commands bound to one warehouse file and one scratch folder."""

    def __init__(self, db: Path, scratch: Path, root: Path = REPO) -> None:
        self.db = db
        self.scratch = scratch
        self.root = root
        self.published = scratch / "published.duckdb"

    @property
    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["PAPERRANK_DB"] = str(self.db)
        env["PAPERRANK_PUBLISHED_DB"] = str(self.published)
        # make targets run dbt in-process: keep its target and logs out of the repo
        env.setdefault("DBT_TARGET_PATH", str(self.scratch / "target"))
        env.setdefault("DBT_LOG_PATH", str(self.scratch / "logs"))
        env["DBT_PROFILES_DIR"] = str(self.root)
        return env

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            list(args), cwd=self.root, env=self.env, capture_output=True, text=True, timeout=600
        )
        if check and result.returncode != 0:
            raise AssertionError(
                f"{' '.join(args)} exited {result.returncode}\n"
                f"--- stdout\n{result.stdout[-5000:]}\n--- stderr\n{result.stderr[-5000:]}"
            )
        return result

    def python(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return self.run(sys.executable, "-m", *args, check=check)

    def paperrank(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run `paperrank <args>` (the venv's console script) against this project's warehouse."""
        return self.run(str(BIN / "paperrank"), *args, check=check)

    def dbt(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return self.run(
            str(BIN / "dbt"), *args,
            "--target-path", str(self.scratch / "target"),
            "--log-path", str(self.scratch / "logs"),
            check=check,
        )


def rows(db: Path, sql: str) -> list[tuple]:
    """The rows `sql` selects from the warehouse file `db`, read-only."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()
