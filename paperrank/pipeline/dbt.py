"""dbt, in this process (dbt's programmatic dbtRunner), with plain output off a terminal.

Starting dbt costs seconds; the pipeline parses the project once and reuses the manifest for
the build and the export.  Colour only when stdout is a terminal.  A lock held by another
process becomes one line (`paperrank.publish.locks`), never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from paperrank.core.errors import PaperrankError
from paperrank.publish.locks import WarehouseLocked, describe_lock
from paperrank.quality import seeds, test_failures

LOADS_SEEDS = {"build", "seed"}
RUNS_TESTS = {"build", "test"}


class DbtFailed(RuntimeError):
    """A dbt command failed; dbt has already printed why."""


class Dbt:
    """One project parse, many commands."""

    def __init__(self, vars_json: str, target: str | None = None, quiet: bool = True) -> None:
        self.vars_json = vars_json
        self.target = target
        self.quiet = quiet
        self.manifest: Any = None

    def _argv(self, command: list[str]) -> list[str]:
        argv = [*command, "--vars", self.vars_json]
        argv.append("--use-colors" if sys.stdout.isatty() else "--no-use-colors")
        if self.quiet:
            argv.append("--quiet")
        if self.target:
            argv += ["--target", self.target]
        return argv

    def parse(self) -> None:
        """Parse the project once (no warehouse access); every command reuses the manifest."""
        from dbt.cli.main import dbtRunner

        if self.manifest is None:
            parsed = dbtRunner().invoke(self._argv(["parse"]))
            self._raise_for(parsed, "parse")
            self.manifest = parsed.result

    def invoke(self, *command: str) -> Any:
        """Run one dbt command; raise WarehouseLocked or DbtFailed when it fails."""
        from dbt.cli.main import dbtRunner

        if command[0] in LOADS_SEEDS:
            _check_seeds()
        if command[0] in RUNS_TESTS:  # so a failure explains this run's tests, never an older run's
            (test_failures.DEFAULT_TARGET / "run_results.json").unlink(missing_ok=True)
        self.parse()
        try:
            result = dbtRunner(manifest=self.manifest).invoke(self._argv(list(command)))
        finally:
            _release_warehouse()
        try:
            self._raise_for(result, command[0])
        except DbtFailed:
            if command[0] in RUNS_TESTS and self.target != "spark":  # it queries DuckDB
                _explain_failed_tests()
            raise
        return result.result

    @staticmethod
    def _raise_for(result: Any, command: str) -> None:
        if result.success:
            return
        texts = [str(result.exception or "")]
        for node in getattr(result.result, "results", None) or []:
            texts.append(str(getattr(node, "message", "") or ""))
        for text in texts:
            message = describe_lock(text)
            if message:
                raise WarehouseLocked(message)
        # the message, not dbt's trailing "> in macro ..." / "> called by ..." context lines
        detail = [line.strip() for line in texts[0].strip().splitlines()
                  if line.strip() and not line.strip().startswith(">")]
        raise DbtFailed(f"dbt {command} failed" + (f": {detail[-1]}" if detail else ""))


def _check_seeds() -> None:
    """A malformed seed row as one line naming file and line, before dbt's CSV sniffer dump."""
    problems = seeds.check_folder(seeds.DEFAULT_SEEDS)
    if problems:
        raise PaperrankError("seed check failed (fix these before dbt seed):\n  " + "\n  ".join(problems))


def _explain_failed_tests() -> None:
    """Print the offending rows of every failed dbt test (seed rows with their CSV lines);
    nothing when dbt stopped before running any (a settings or compile error says why)."""
    if (test_failures.DEFAULT_TARGET / "run_results.json").exists():
        test_failures.run(argparse.Namespace(target_path=test_failures.DEFAULT_TARGET))


def _release_warehouse() -> None:
    """Close dbt's connections and its DuckDB database, so the warehouse file is free for
    the checks that follow (in a process of its own, dbt would release it by exiting)."""
    from dbt.adapters.duckdb.connections import DuckDBConnectionManager
    from dbt.adapters.factory import cleanup_connections

    cleanup_connections()
    with DuckDBConnectionManager._LOCK:
        if DuckDBConnectionManager._ENV is not None:
            DuckDBConnectionManager._ENV.close()
            DuckDBConnectionManager._ENV = None
