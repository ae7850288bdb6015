"""dbt, in this process (dbt's programmatic dbtRunner), parsed once, with plain output off a terminal.

Starting dbt costs seconds, most of them the parse. So the project is parsed **without the
settings** and the settings reach each command as `--vars`: dbt renders vars when a node
compiles (on-run-start checks, models, test arguments), not when it parses, so the parse
depends only on the files, the profile and the target. Two things follow:

- across processes, dbt's partial parse (target/partial_parse.msgpack) survives a change of
  settings: dbt invalidates it when the `--vars` of the parse change, and the parse has none;
- across warehouse files, each parse is also kept for its warehouse
  (`paperrank.pipeline.saved_parses`): dbt's one saved parse fits one profile connection, the
  file's path included, so without it switching between venues' warehouses parses everything;
- within a process, one parsed manifest serves every command with any settings (`MANIFESTS`,
  keyed by what the parse does depend on): `make rank` parses once, and a test session that
  runs many pipelines in-process parses once per target.

Nothing the parse keeps may depend on a setting, or a cached manifest would carry the setting of
its first parse: no `enabled=var(...)` (a method's models are empty when another method is in
force instead), no var in a ref; tests/python/test_dbt_parse.py checks it.

Colour only when stdout is a terminal.  A lock held by another process becomes one line
(`paperrank.core.warehouse_locks`), never a traceback: the pipeline checks the lock before dbt starts,
and when another process takes it in between, dbt's own dump of that error (its "Encountered an
error" and a chained traceback of some 230 lines) is held back.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Callable
from typing import IO, Any

from paperrank.core import build_parts, config
from paperrank.core.errors import CheckFailed, PaperrankError
from paperrank.core.warehouse_locks import WarehouseLocked, describe_lock
from paperrank.engines import dbt_target
from paperrank.pipeline import saved_parses
from paperrank.quality import seeds, test_failures

LOADS_SEEDS = {"build", "seed"}
# dbt's error headers ("Compilation Error in operation ...", "Runtime Error"): not the message
_HEADER = re.compile(r"[A-Z][A-Za-z ]* Error( in .*)?")
RUNS_TESTS = {"build", "test"}
# dbt.log's level unless DBT_LOG_LEVEL_FILE says otherwise: dbt's default, debug, writes every
# statement of every node (five or six lines each, the file flushed and its size checked for
# rotation at each), which cost a tenth of the ranking alone's build (bench/README.md); the
# statements are in target/run/ anyway, and DBT_LOG_LEVEL_FILE=debug brings them back
FILE_LOG_LEVEL = "info"


class DbtFailed(CheckFailed):
    """A dbt command failed (a test, a model, a settings check); dbt has already printed why."""


# Parsed manifests of this process, by what a parse depends on besides the files (`_parse_key`).
MANIFESTS: dict[tuple[str, ...], Any] = {}


class Dbt:
    """dbt commands with one set of settings (`vars_json`) on one target, on a shared parse."""

    def __init__(self, vars_json: str, target: str | None = None, quiet: bool = True) -> None:
        self.vars_json = vars_json
        # always named (config.DEFAULT_DBT_TARGET when None), so that every command shares one
        # saved parse: dbt's partial parse is keyed on the --target given, not the one used
        self.target = target or config.DEFAULT_DBT_TARGET
        self.quiet = quiet

    def _argv(self, command: list[str], with_vars: bool = True) -> list[str]:
        argv = [*command, *(["--vars", self.vars_json] if with_vars else [])]
        argv.append("--use-colors" if sys.stdout.isatty() else "--no-use-colors")
        if self.quiet:
            argv.append("--quiet")
        if not os.environ.get("DBT_LOG_LEVEL_FILE"):
            argv += ["--log-level-file", FILE_LOG_LEVEL]
        return [*argv, "--target", self.target]

    @property
    def manifest(self) -> Any:
        """The project parsed without settings (once per process and parse key), its nodes as
        they were parsed (`_uncompiled`)."""
        from dbt.cli.main import dbtRunner

        key = _parse_key(self.target)
        if key not in MANIFESTS:
            # --no-write-json: the command that follows writes target/manifest.json (and its
            # run_results.json) when it ends; written by the parse too, it would cost each start
            # from the parse kept for this warehouse file (paperrank.pipeline.saved_parses)
            parse = ["parse", "--no-write-json", *saved_parses.arguments(self.target)]
            before = saved_parses.saved_stamp()
            parsed = dbtRunner().invoke(self._argv(parse, with_vars=False))
            self._raise_for(parsed, "parse")
            saved_parses.keep(self.target, before)
            MANIFESTS[key] = parsed.result
        return _uncompiled(MANIFESTS[key])

    def invoke(self, *command: str) -> Any:
        """Run one dbt command; raise WarehouseLocked or DbtFailed when it fails."""
        from dbt.cli.main import dbtRunner

        if command[0] in LOADS_SEEDS:
            check_seeds()
        if command[0] in RUNS_TESTS:  # so a failure explains this run's tests, never an older run's
            (config.dbt_target_path() / "run_results.json").unlink(missing_ok=True)
        manifest = self.manifest
        argv = self._argv(list(command))
        try:
            with contextlib.redirect_stdout(_LockDumpFilter(sys.stdout)):
                result = dbtRunner(manifest=manifest).invoke(argv)
        finally:
            release_warehouse()
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


def _uncompiled(manifest: Any) -> Any:
    """`manifest` with every node's compiled state cleared, as a parse leaves it.

    dbt compiles nodes in place and marks them: a node whose ephemeral models' CTEs were
    "injected" once is never injected again, so the next command would run SQL that names CTEs
    it no longer defines. The marks (and the SQL they describe) are cleared; the next compile
    fills them again, with that command's settings. (A copy is not an option: dbt 1.11's
    Manifest cannot be pickled or deep-copied back whole.)"""
    from dbt.contracts.graph.nodes import CompiledNode

    for node in [*manifest.nodes.values(), *manifest.unit_tests.values()]:
        if isinstance(node, CompiledNode):
            node.compiled = False
            node.compiled_code = None
            node.extra_ctes_injected = False
            node.extra_ctes = []
            node._pre_injected_sql = None
    return manifest


def _parse_key(target: str) -> tuple[str, ...]:
    """What a parse depends on besides the project's files: the target, and the names the
    profile gives the relations (DuckDB names the database after the warehouse file's stem, so
    a manifest parsed for `a/warehouse.duckdb` serves `b/warehouse.duckdb`, not `c/other.duckdb`;
    Spark's relations live in the Spark warehouse folder)."""
    project = os.environ.get("DBT_PROJECT_DIR") or os.getcwd()
    warehouse = config.dbt_target_warehouse(target)
    if target == config.DEFAULT_DBT_TARGET:
        return (project, target, warehouse.stem)
    if target == "spark":
        return (project, target, str(warehouse.resolve()))
    return (project, target)


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


def build(vars_json: str, engine: str, extras: tuple[str, ...],
          released: Callable[[], object] | None = None, quiet: bool = True) -> tuple[str, ...]:
    """dbt build of the ranking and `extras` on `engine` with the settings `vars_json`
    (paperrank.core.build_parts selects their models and the tests that read only those); on
    Spark the DuckDB raw layer is copied into Spark first. dbt starts (its import, the saved
    parse), then `released` is waited for (the gates' worker reading the raw tables: dbt must
    not open the working warehouse before it let go). `quiet`: dbt's own lines kept to its
    log. Returns the extras built."""
    dbt = Dbt(vars_json, target=dbt_target(engine), quiet=quiet)
    dbt.manifest  # noqa: B018 - dbt's start, beside the worker's reads
    if released is not None:
        released()
    if engine == "spark":
        from paperrank.engines.spark import warehouse_dir
        from paperrank.engines.spark_raw import sync

        sync(config.working_db(), warehouse_dir())
    # `make test` runs the unit tests
    dbt.invoke("build", "--exclude-resource-type", "unit_test", *build_parts.build_selection(extras))
    return extras


def check_seeds() -> None:
    """A malformed seed row as one line naming file and line, before dbt's CSV sniffer dump."""
    problems = seeds.check_folder(seeds.DEFAULT_SEEDS)
    if problems:
        raise PaperrankError("seed check failed (fix these before dbt seed):\n  " + "\n  ".join(problems))


def _explain_failed_tests() -> None:
    """Print the offending rows of every failed dbt test (seed rows with their CSV lines);
    nothing when dbt stopped before running any (a settings or compile error says why)."""
    target = config.dbt_target_path()  # now, not at import: the process may run many commands
    if (target / "run_results.json").exists():
        test_failures.explain_failures(target)


def release_warehouse() -> None:
    """Close dbt's connections and its DuckDB database, so the warehouse file is free for the
    checks that follow and for the next command of this process (in a process of its own, dbt
    would release it by exiting).

    `close_all_connections` (what dbt-duckdb runs at exit) only drops its reference to the
    database, and a parsed manifest kept for the next command can keep the database alive: so
    the environment is closed first, under dbt-duckdb's own lock. Closing its connection closes
    the database and frees the file at once, whatever cursors are still referenced (DuckDB 2),
    so no full collection of the build's garbage is waited for."""
    from dbt.adapters.duckdb.connections import DuckDBConnectionManager
    from dbt.adapters.factory import cleanup_connections

    cleanup_connections()
    with DuckDBConnectionManager._LOCK:
        environment = DuckDBConnectionManager._ENV
        if environment is not None:
            environment.close()
    DuckDBConnectionManager.close_all_connections()
