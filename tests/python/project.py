"""Run the project's real commands (loaders, dbt) against a throw-away warehouse.

Tests never touch the default warehouse: each gets its own DuckDB file and its own dbt
target and log folders, so tests can run while an operator's warehouse is in use.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
ICLR = SHARED / "data" / "iclr2026"
BIN = Path(sys.executable).parent
# The rank-uncertainty vars at the smallest sizes that still build every model: for builds whose
# tests read the ranking, the marts' shape or the pages, not the uncertainty (the project's
# defaults, B = 1000 and 100 weight draws, stay for the tests that check it).
FEW_REPLICATES = {"rank_uncertainty_replicates": 20, "weight_draws": 10}


def few_replicates(**settings: Any) -> str:
    """dbt --vars (JSON, valid YAML) of `settings` with few uncertainty replicates."""
    return json.dumps({**FEW_REPLICATES, **settings})


def replicate_options(settings: dict[str, int] = FEW_REPLICATES) -> list[str]:
    """`paperrank` options of the few-replicates settings (`FEW_REPLICATES`)."""
    return [option for name, value in settings.items()
            for option in ("--" + name.replace("_", "-"), str(value))]


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
    """The repository's commands bound to one warehouse file and one scratch folder.

    dbt's unit tests are static (fixture rows in, expected rows out, whatever the warehouse
    holds), so they run once, in test_dbt_unit_tests.py (`unit_tests=True`); every other dbt
    command here, and every make target and pipeline command it starts, excludes them
    (DBT_EXCLUDE_RESOURCE_TYPES, dbt's own variable for --exclude-resource-type).
    """

    def __init__(self, db: Path, scratch: Path, root: Path = REPO, unit_tests: bool = False) -> None:
        self.db = db
        self.scratch = scratch
        self.root = root
        self.published = scratch / "published.duckdb"
        self.unit_tests = unit_tests

    def in_scratch(self, scratch: Path) -> Project:
        """The same warehouse file with a scratch folder of its own (dbt target and logs,
        reports): for commands that only read a shared warehouse."""
        scratch.mkdir(parents=True, exist_ok=True)
        return Project(self.db, scratch, self.root, self.unit_tests)

    @property
    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["PAPERRANK_DB"] = str(self.db)
        env["PAPERRANK_PUBLISHED_DB"] = str(self.published)
        # make targets run dbt in-process: keep its target and logs out of the repo
        env.setdefault("DBT_TARGET_PATH", str(self.scratch / "target"))
        env.setdefault("DBT_LOG_PATH", str(self.scratch / "logs"))
        env["DBT_PROFILES_DIR"] = str(self.root)
        if self.unit_tests:
            env.pop("DBT_EXCLUDE_RESOURCE_TYPES", None)
        else:
            env["DBT_EXCLUDE_RESOURCE_TYPES"] = "unit_test"
        return env

    def run(self, *args: str, check: bool = True, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            list(args), cwd=self.root, env=self.env, capture_output=True, text=True, timeout=timeout
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

    def cli(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """`paperrank <args>` in this process, against this project's warehouse: what a
        subprocess would return (exit code, stdout, stderr), without its start-up.

        Python's imports, dbt's parse (`paperrank.pipeline.dbt.MANIFESTS`, kept for the next
        command) and the quality gates' worker are paid once per pytest worker instead of once
        per command. A subprocess stays where the command line itself is what a test checks."""
        from paperrank.cli import run as run_paperrank

        out, err = io.StringIO(), io.StringIO()
        with self.environment(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = run_paperrank(list(args))
        result = subprocess.CompletedProcess(["paperrank", *args], code, out.getvalue(), err.getvalue())
        if check and code != 0:
            raise AssertionError(f"paperrank {' '.join(args)} exited {code}\n"
                                 f"--- stdout\n{result.stdout[-5000:]}\n--- stderr\n{result.stderr[-5000:]}")
        return result

    def dbt_in_process(self, *args: str, dbt_vars: str = "{}") -> Any:
        """`dbt <args> --vars <dbt_vars>` in this process, on the process's one parse of the
        project (`paperrank.pipeline.dbt.Dbt`, as `paperrank rank` runs its build): for raw dbt
        commands (`run --select ...`, `show`, `docs generate`) whose command line is not what a
        test checks. Returns dbt's result (a show's rows are in `.results[0].agate_table`);
        raises (DbtFailed, PaperrankError) when the command fails."""
        from paperrank.pipeline.dbt import Dbt

        with self.environment():
            return Dbt(dbt_vars).invoke(*args)

    @contextmanager
    def environment(self) -> Iterator[None]:
        """This project's variables (warehouse paths, dbt's folders, excluded unit tests) and
        working folder while a command runs in this process."""
        overrides = {name: value for name, value in self.env.items() if os.environ.get(name) != value}
        removed = [name for name in os.environ if name not in self.env]
        with pytest.MonkeyPatch.context() as patch:
            for name, value in overrides.items():
                patch.setenv(name, value)
            for name in removed:
                patch.delenv(name)
            patch.chdir(self.root)
            yield


def warehouse_copy(source: Project, scratch: Path, root: Path = REPO) -> Project:
    """A copy of `source`'s warehouse file in `scratch`, bound to `scratch`: for a test that
    writes, so that a shared warehouse stays exactly as it was built."""
    scratch.mkdir(parents=True, exist_ok=True)
    db = scratch / source.db.name
    shutil.copy(source.db, db)
    wal = source.db.with_name(source.db.name + ".wal")  # not checkpointed yet: part of the file
    if wal.exists():
        shutil.copy(wal, db.with_name(db.name + ".wal"))
    return Project(db, scratch, root)


def venue_copy(source: Project, scratch: Path) -> Project:
    """A copy of `source`'s whole folder in `scratch`, bound to it: the working warehouse, the
    published warehouse, the exports and the report with their versions, for a test that
    writes after a publication (a rollback, another rank, a kill). The links between versions
    are relative, so the copy's point into the copy; dbt's target and logs stay behind."""
    left = {"target", "logs", ".built"}
    shutil.copytree(source.scratch, scratch, symlinks=True, dirs_exist_ok=True,
                    ignore=lambda folder, names: left & set(names)
                    if Path(folder) == source.scratch else set())
    return Project(scratch / source.db.name, scratch, source.root)


def as_build(working: Path, build_id: str) -> Path:
    """The working warehouse's build under another build id (its settings and list of marts),
    so that one build published several times reads as several builds."""
    con = duckdb.connect(str(working))
    try:
        for table in ("build_settings", "build_marts"):
            con.execute(f"update marts.{table} set build_id = ?", [build_id])
    finally:
        con.close()
    return working


@contextmanager
def dbt_not_started(project: Project) -> Iterator[None]:
    """Fail unless the block, run in this process, starts no dbt: the process's parses
    (`paperrank.pipeline.dbt.MANIFESTS`) are set aside for an empty table that must stay empty,
    and `project`'s dbt target folder, where any dbt command writes first, must not appear."""
    from paperrank.pipeline import dbt

    target = Path(project.env["DBT_TARGET_PATH"])
    existed = target.exists()
    kept, dbt.MANIFESTS = dbt.MANIFESTS, {}
    try:
        yield
        assert dbt.MANIFESTS == {}, "dbt started: the project was parsed"
        assert existed or not target.exists(), f"dbt started: it wrote {target}"
    finally:
        dbt.MANIFESTS = kept


def execute(db: Path, sql: str, parameters: list | None = None) -> None:
    """Run one statement that writes on the warehouse file `db`, closed at once: how a test
    breaks or edits a copy of a build before the command under test reads it."""
    con = duckdb.connect(str(db))
    try:
        con.execute(sql, parameters or [])
    finally:
        con.close()


def rows(db: Path, sql: str) -> list[tuple]:
    """The rows `sql` selects from the warehouse file `db`, read-only."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


class InProcessDbt:
    """dbt in the test's own process, the project parsed once, for many commands on one warehouse.

    A dbt command in a process of its own pays Python's imports of dbt and a full parse: seconds
    each, for tests that only need to see the on-run-start settings check refuse a var. Here
    every command runs with its own --vars (vars reach the check when it runs, not at parse
    time) on the parse `paperrank.pipeline.dbt.Dbt` keeps for the process: one parse per
    project (and warehouse file name) for these commands and the pipelines run in-process
    (`Project.cli`) alike. Each call returns what a subprocess would: the exit code and the
    lines dbt prints.
    """

    def __init__(self, project: Project) -> None:
        self.project = project
        with self._environment():
            self._manifest()  # parsed now, unless a command of this process parsed it already

    @staticmethod
    def _manifest() -> Any:
        """The process's parse of the project (`paperrank.pipeline.dbt.MANIFESTS`, shared with
        the pipeline commands run in-process), its nodes as they were parsed."""
        from paperrank.pipeline.dbt import Dbt

        return Dbt("{}").manifest

    @property
    def manifest(self) -> Any:
        """dbt's manifest of the project (the process's one parse), for tests that read the
        graph: the models, their tags and dependencies."""
        with self._environment():
            return self._manifest()

    def _options(self) -> list[str]:
        root, scratch = self.project.root, self.project.scratch
        return ["--project-dir", str(root), "--profiles-dir", str(root), "--no-use-colors",
                "--target-path", str(scratch / "target"), "--log-path", str(scratch / "logs")]

    def _environment(self) -> contextlib.AbstractContextManager[None]:
        """The project's variables (warehouse paths, excluded unit tests) while dbt runs."""
        return self.project.environment()

    def __call__(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        from dbt.cli.main import dbtRunner

        printed: list[str] = []

        def keep(event: Any) -> None:
            if event.info.level != "debug":  # what dbt prints at its default log level
                printed.append(event.info.msg)

        with self._environment():
            try:
                result = dbtRunner(manifest=self._manifest(), callbacks=[keep]).invoke(
                    [*args, *self._options()])
            finally:
                release_warehouse()
        completed = subprocess.CompletedProcess(["dbt", *args], 0 if result.success else 1,
                                                "\n".join(printed), "")
        if check and not result.success:
            raise AssertionError(f"dbt {' '.join(args)} failed: {result.exception}\n"
                                 f"--- printed\n{completed.stdout[-5000:]}")
        return completed


def release_warehouse() -> None:
    """Close the DuckDB database dbt-duckdb keeps open in this process, so the test (and the
    next command) can open the warehouse file again; a dbt process of its own would exit."""
    from paperrank.pipeline.dbt import release_warehouse as release

    release()


def query(db: Path, sql: str) -> pd.DataFrame:
    """The rows of `sql` on the DuckDB file `db`, opened read-only and closed again (a reader
    left open would block the next writer)."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).df()
    finally:
        con.close()
