"""dbt, in this process (dbt's programmatic dbtRunner), with plain output off a terminal.

Starting dbt costs seconds; the pipeline parses the project once and reuses the manifest for
the build and the export.  Colour only when stdout is a terminal.  A lock held by another
process becomes one line (`paperrank.publish.locks`), never a traceback: the pipeline checks the
lock before dbt starts, and when another process takes it in between, dbt's own dump of that
error (its "Encountered an error" and a chained traceback of some 230 lines) is held back.
"""

from __future__ import annotations

import contextlib
import gc
import re
import sys
from typing import IO, Any

from paperrank.core.errors import CheckFailed, PaperrankError
from paperrank.publish.locks import WarehouseLocked, describe_lock
from paperrank.quality import seeds, test_failures

LOADS_SEEDS = {"build", "seed"}
# dbt's error headers ("Compilation Error in operation ...", "Runtime Error"): not the message
_HEADER = re.compile(r"[A-Z][A-Za-z ]* Error( in .*)?")
RUNS_TESTS = {"build", "test"}


class DbtFailed(CheckFailed):
    """A dbt command failed (a test, a model, a settings check); dbt has already printed why."""


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
        argv = self._argv(list(command))
        try:
            with contextlib.redirect_stdout(_LockDumpFilter(sys.stdout)):
                result = dbtRunner(manifest=self.manifest).invoke(argv)
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
        useful = _useful_line(texts[0])
        if _is_compilation_error(result.exception):
            # the settings checks (macros/check_settings.sql, the uncertainty vars) raise
            # compiler errors: a wrong setting, so bad input, not a failed check
            raise PaperrankError(f"dbt {command} stopped: {useful}")
        raise DbtFailed(f"dbt {command} failed" + (f": {useful}" if useful else ""))


class _LockDumpFilter:
    """dbt's stdout, less its dump of a DuckDB lock conflict.

    dbt writes each event in one call, so a write of dbt's "Encountered an error" or of a
    traceback that `describe_lock` reads as a lock conflict is that dump; `_raise_for` turns the
    same error into the one line that names the process holding the file. Every other write
    passes at once.
    """

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        if ("Encountered an error" in text or "Traceback (most recent call last)" in text) \
                and describe_lock(text) is not None:
            return len(text)
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()

    def __getattr__(self, name: str) -> Any:  # encoding, fileno, ...: the real stream's
        return getattr(self.stream, name)


def _is_compilation_error(exception: BaseException | None) -> bool:
    from dbt_common.exceptions import CompilationError

    return isinstance(exception, CompilationError)


def _useful_line(text: str) -> str:
    """The line of a dbt error that says what is wrong: not its "Compilation Error in ..."
    header, nor the "> in macro ... / > called by ..." trail."""
    lines = [line.strip() for line in text.strip().splitlines()]
    message = [line for line in lines
               if line and not line.startswith(">") and not _HEADER.fullmatch(line)]
    if message:
        return message[0]
    return lines[-1] if lines else ""


def _check_seeds() -> None:
    """A malformed seed row as one line naming file and line, before dbt's CSV sniffer dump."""
    problems = seeds.check_folder(seeds.DEFAULT_SEEDS)
    if problems:
        raise PaperrankError("seed check failed (fix these before dbt seed):\n  " + "\n  ".join(problems))


def _explain_failed_tests() -> None:
    """Print the offending rows of every failed dbt test (seed rows with their CSV lines);
    nothing when dbt stopped before running any (a settings or compile error says why)."""
    if (test_failures.DEFAULT_TARGET / "run_results.json").exists():
        test_failures.explain_failures(test_failures.DEFAULT_TARGET)


def _release_warehouse() -> None:
    """Close dbt's connections and drop its DuckDB database, so the warehouse file is free for
    the checks that follow (in a process of its own, dbt would release it by exiting).

    `close_all_connections` is what dbt-duckdb itself runs at exit (its public classmethod);
    the collection makes sure the dropped database is closed now, not at some later cycle."""
    from dbt.adapters.duckdb.connections import DuckDBConnectionManager
    from dbt.adapters.factory import cleanup_connections

    cleanup_connections()
    DuckDBConnectionManager.close_all_connections()
    gc.collect()
