"""The quality gates of `make rank`, in one worker process beside dbt.

Importing great-expectations takes seconds, and dbt cannot open the working warehouse while
another process reads it.  So a worker process (spawned, not forked: DuckDB has threads running
here by then) takes the raw layer's fingerprint and reads the raw tables (read-only, closed at
once) while dbt starts here, says so (`released`: dbt opens the file only after that), and
checks them while dbt builds; when the build is done it takes the fingerprint again and checks
the marts (read-only, dbt has let go of the file).
Nothing is published unless the raw layer is unchanged and both verdicts pass, in that order.
Each report goes to the pipeline's log, and to the screen when its gate fails; the GX Data Docs
sites are written after each verdict is sent (the reports' own summary pages before it).

The worker is started with no arguments and receives each request (a few names, never the
tables: it reads them itself) through its own pipe after it has started, so a worker that dies
makes the send or the receive fail at once (one line, `GateFailed`) instead of leaving this
process blocked on a pipe nobody reads.  One worker serves every run of this process
(`_WORKER`): a test session or a bench that runs many pipelines pays great-expectations' import
once.  It ends with this process: when the pipe closes it stops.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import io
import multiprocessing
import os
import pickle
import sys
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperrank.core.errors import CheckFailed, PaperrankError
from paperrank.core.exiting import exit_now
from paperrank.pipeline import fingerprint
from paperrank.pipeline.settings import Settings

if TYPE_CHECKING:
    import pandas as pd


class GateFailed(CheckFailed):
    """A quality gate failed (its report has been printed); nothing is published."""


def _check(stage: str, chosen: Settings, frames: dict[str, pd.DataFrame] | None,
           later: list[Callable[[], object]]) -> tuple[int, str]:
    from paperrank.quality import validate

    checks = validate.Checks(stage=stage, taxonomy=chosen.taxonomy, top_n=chosen.top_n,
                             profile=chosen.profile if stage == "raw" else None,
                             engine=chosen.engine)
    report = io.StringIO()
    try:
        with contextlib.redirect_stdout(report):
            passed = validate.check(checks, frames, later)
    except (OSError, ValueError) as error:
        return 2, f"{report.getvalue()}error: {error}\n"
    return (0 if passed else 1), report.getvalue()


def _portable(error: BaseException) -> BaseException:
    """`error` as the caller can receive it: the project's own errors as they are (their
    message and exit code), anything else, or what cannot cross the pipe, as a PaperrankError."""
    if isinstance(error, PaperrankError):
        try:
            pickle.loads(pickle.dumps(error))
            return error
        except Exception:  # noqa: BLE001 - whatever stops it crossing, its message still can
            return PaperrankError(str(error))
    return PaperrankError(f"the raw tables could not be read ({type(error).__name__}: {error})")


def _answer(pipe: Connection, stage: str, chosen: Settings) -> None:
    """One request: for `raw`, the fingerprint and the tables read (`released`, or `refused`
    with the error), then the raw verdict; for `marts`, the fingerprint again with the marts'
    verdict. The GX Data Docs sites are written after the verdict is sent."""
    from paperrank.core.warehouse import db_path

    later: list[Callable[[], object]] = []
    if stage == "raw":
        from paperrank.quality.frames import read_stage

        try:
            before = fingerprint.take(db_path())  # before the checks read the tables
            frames = read_stage("raw", db_path(), chosen.taxonomy)
        except Exception as error:  # noqa: BLE001 - sent to the caller, which raises it
            pipe.send(("refused", _portable(error)))
            return
        pipe.send(("released", before))
        pipe.send(("verdict", *_check("raw", chosen, frames, later)))
    else:
        try:
            after: fingerprint.Fingerprint | BaseException = fingerprint.take(db_path())
        except Exception as error:  # noqa: BLE001 - sent to the caller, which raises it
            after = _portable(error)
        pipe.send(("verdict", *_check(stage, chosen, None, later), after))
    for write in later:
        write()


def _serve(pipe: Connection, collect: bool) -> None:
    """The worker: answer (stage, settings, environment, folder) requests until the pipe
    closes. `collect`: the cycle collector on, as it is in the process that started it
    (`paperrank rank` runs without it: paperrank.cli.WITHOUT_COLLECTOR)."""
    if not collect:
        gc.disable()
    main = sys.modules["__main__"]
    if getattr(main, "__spec__", None) is None and not hasattr(main, "__file__"):
        # spawned from `python -c`, this process's __main__ has no file; pyspark (installed with
        # the Spark extra, imported by great-expectations) takes that for a doctest run and
        # exits the process without a word
        main.__file__ = "<paperrank quality gates>"
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)  # library chatter; the reports travel through the pipe
    while True:
        try:
            stage, chosen, environment, folder = pipe.recv()
        except (EOFError, OSError):
            # the caller is done with it: its own exit waits for this one (`_discard_worker`),
            # which a return made tear down great-expectations and pandas first
            exit_now(0)
        # the caller's environment and folder as they are now, not as they were when this worker
        # started: a process that runs many commands (a test session, a bench) changes
        # PAPERRANK_DB and the output folders between them, and a check must read this run's
        os.environ.clear()
        os.environ.update(environment)
        os.chdir(folder)
        _answer(pipe, stage, chosen)


class _Worker:
    """The gate process and this process's end of its pipe."""

    def __init__(self) -> None:
        spawn = multiprocessing.get_context("spawn")
        self.pipe, child_end = spawn.Pipe()
        self.process: BaseProcess = spawn.Process(target=_serve,
                                                  args=(child_end, gc.isenabled()),
                                                  name="paperrank-gates", daemon=True)
        self.process.start()
        child_end.close()  # the worker's end lives in the worker only: its death closes the pipe

    def stop(self) -> None:
        self.pipe.close()
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


_WORKER: _Worker | None = None
_STOP_AT_EXIT = False


def _worker() -> _Worker:
    """This process's gate worker, started when there is none or the last one is gone.

    At exit the worker is stopped by closing its pipe, so it ends as a process does: left to
    multiprocessing's own exit handler (registered earlier, so run later), a daemon is
    terminated, and the resource tracker then prints a warning about the semaphores it held
    after the command's last line."""
    global _WORKER, _STOP_AT_EXIT
    if _WORKER is None or not _WORKER.process.is_alive():
        _WORKER = _Worker()
        if not _STOP_AT_EXIT:
            atexit.register(_discard_worker)
            _STOP_AT_EXIT = True
    return _WORKER


def _discard_worker() -> None:
    """Stop the worker (a run left a request unanswered: its answer must never reach the next)."""
    global _WORKER
    if _WORKER is not None:
        _WORKER.stop()
        _WORKER = None


class Gates:
    """Start with the worker fingerprinting and reading the raw tables; `released()` waits
    until it has let go of the working warehouse (before dbt opens it) and gives the raw
    layer's fingerprint, `raw()` gives the raw verdict, `start_marts()` has the marts checked
    and `marts_verdict()` gives theirs, the raw layer compared first (the pipeline works
    between the two), `stop()` ends the run."""

    def __init__(self, chosen: Settings, log: Path) -> None:
        self.chosen, self.log = chosen, log
        self.worker = _worker()
        self.waiting = 2  # answers owed: the raw tables' release, then their verdict
        self.send_error: BaseException | None = None
        self.before: fingerprint.Fingerprint | None = None
        self.refused: BaseException | None = None
        self._send(("raw", chosen))

    def _send(self, request: tuple[str, Settings]) -> None:
        try:
            self.worker.pipe.send((*request, dict(os.environ), os.getcwd()))
        except (OSError, ValueError) as error:  # BrokenPipeError, a closed pipe
            self.send_error = error

    def released(self) -> fingerprint.Fingerprint:
        """The raw layer's fingerprint, taken before the raw tables were read, once the worker
        has read them and let go of the working warehouse; raises what stopped the read (a
        GateFailed when the worker is gone)."""
        if self.before is None and self.refused is None:  # the worker's first answer, once
            answer = self._receive()
            if answer[0] == "released":
                self.before = answer[1]
            elif answer[0] == "refused":
                self.waiting -= 1  # no verdict follows
                self.refused = answer[1]
            else:
                self.refused = GateFailed(f"the quality gate process ended before it read the raw "
                                          f"tables (exit code {answer[1]}); nothing was built")
        if self.refused is not None:
            raise self.refused
        assert self.before is not None
        return self.before

    def raw(self) -> None:
        self.released()
        self._verdict("raw", self._receive())

    def start_marts(self) -> None:
        """Have the worker fingerprint the raw layer again and check the marts (dbt has let go
        of the working warehouse)."""
        self.waiting += 1
        self._send(("marts", self.chosen))

    def marts_verdict(self, raw_before: fingerprint.Fingerprint | None = None) -> None:
        """Raise when the raw layer changed since `raw_before` (PaperrankError), then when the
        marts' checks failed (GateFailed)."""
        answer = self._receive()
        if answer[0] == "verdict" and raw_before is not None:
            _, _, _, after = answer  # ("verdict", code, report, the raw layer's fingerprint)
            if isinstance(after, BaseException):
                raise after
            fingerprint.require_same(raw_before, after)
        self._verdict("marts", answer)

    def _verdict(self, stage: str, answer: tuple[Any, ...]) -> None:
        if answer[0] == "verdict":  # ("verdict", code, report[, the marts' fingerprint])
            code, report = answer[1:3]
        else:
            code, report = 1, f"the quality gate process ended without a verdict (exit code {answer[1]})\n"
        with self.log.open("a", encoding="utf-8") as handle:
            handle.write(report)
        if code != 0:
            print("\n" + report.rstrip(), flush=True)
            raise GateFailed(f"the {stage} quality checks failed (report above and in {self.log}); "
                             "nothing was published")

    def _receive(self) -> tuple[Any, ...]:
        """The worker's next answer, or ("ended", exit code) when it is gone."""
        if self.send_error is None:
            try:
                answer: tuple[Any, ...] = self.worker.pipe.recv()
                self.waiting -= 1
                return answer
            except (EOFError, OSError):
                pass
        self.worker.process.join(timeout=5)
        code = self.worker.process.exitcode
        _discard_worker()
        self.waiting = 0
        return ("ended", code)

    def stop(self) -> None:
        """End this run: a worker still owing an answer (a run cut short) is stopped, so its
        answer never reaches the next run; an idle worker stays for the next run."""
        if self.waiting:
            _discard_worker()
