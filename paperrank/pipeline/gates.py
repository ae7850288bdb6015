"""The quality gates of `make rank`, in one worker process beside dbt.

Importing great-expectations takes seconds, and dbt cannot open the working warehouse while
another process reads it.  So this process reads the raw tables first (read-only, closed at
once) and hands them to a worker process (spawned, not forked: DuckDB has threads running here
by then) that imports great-expectations and checks them while dbt builds here; when the build
is done the worker checks the marts (read-only, dbt has let go of the file).  Nothing is
published unless both verdicts pass, in that order.  Each report goes to the pipeline's log, and
to the screen when its gate fails.

The worker is started with no arguments and receives each request through its own pipe after it
has started, from a thread of this process, so a worker that dies makes the send or the receive
fail at once (one line, `GateFailed`) instead of leaving this process blocked writing megabytes
of frames into a start-up pipe nobody reads.  One worker serves every run of this process
(`_WORKER`): a test session or a bench that runs many pipelines pays great-expectations' import
once.  It ends with this process: when the pipe closes it stops.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import multiprocessing
import os
import sys
import threading
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

import pandas as pd

from paperrank.core.errors import CheckFailed
from paperrank.core.exiting import exit_now
from paperrank.pipeline.settings import Settings


class GateFailed(CheckFailed):
    """A quality gate failed (its report has been printed); nothing is published."""


def _check(stage: str, chosen: Settings, frames: dict[str, pd.DataFrame] | None) -> tuple[int, str]:
    from paperrank.quality import validate

    checks = validate.Checks(stage=stage, taxonomy=chosen.taxonomy, top_n=chosen.top_n,
                             profile=chosen.profile if stage == "raw" else None,
                             engine=chosen.engine)
    report = io.StringIO()
    try:
        with contextlib.redirect_stdout(report):
            passed = validate.check(checks, frames)
    except (OSError, ValueError) as error:
        return 2, f"{report.getvalue()}error: {error}\n"
    return (0 if passed else 1), report.getvalue()


def _serve(pipe: Connection) -> None:
    """The worker: answer (stage, settings, frames) requests until the pipe closes."""
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
            stage, chosen, frames, environment, folder = pipe.recv()
        except (EOFError, OSError):
            # the caller is done with it: its own exit waits for this one (`_discard_worker`),
            # which a return made tear down great-expectations and pandas first (0.77 s)
            exit_now(0)
        # the caller's environment and folder as they are now, not as they were when this worker
        # started: a process that runs many commands (a test session, a bench) changes
        # PAPERRANK_DB and the output folders between them, and a check must read this run's
        os.environ.clear()
        os.environ.update(environment)
        os.chdir(folder)
        pipe.send(_check(stage, chosen, frames))


class _Worker:
    """The gate process and this process's end of its pipe."""

    def __init__(self) -> None:
        spawn = multiprocessing.get_context("spawn")
        self.pipe, child_end = spawn.Pipe()
        self.process: BaseProcess = spawn.Process(target=_serve, args=(child_end,),
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
    """Start with the raw tables read and sent to the worker; `raw()` gives their verdict,
    `start_marts()` has the marts checked and `marts_verdict()` gives theirs (the pipeline
    works between the two), `stop()` ends the run."""

    def __init__(self, chosen: Settings, log: Path) -> None:
        from paperrank.core.warehouse import db_path
        from paperrank.quality.frames import read_stage

        self.chosen, self.log = chosen, log
        self.worker = _worker()
        self.waiting = 0  # requests sent and not yet answered
        self.send_error: BaseException | None = None
        frames = read_stage("raw", db_path(), chosen.taxonomy)
        # a thread sends the frames, so dbt starts at once; a dead worker fails the send
        self.sender = threading.Thread(target=self._send, args=(("raw", chosen, frames),),
                                       name="paperrank-gates-send", daemon=True)
        self.waiting += 1
        self.sender.start()

    def _send(self, request: tuple[str, Settings, Any]) -> None:
        try:
            self.worker.pipe.send((*request, dict(os.environ), os.getcwd()))
        except (OSError, ValueError) as error:  # BrokenPipeError, a closed pipe
            self.send_error = error

    def raw(self) -> None:
        self.sender.join()
        self._verdict("raw")

    def start_marts(self) -> None:
        """Have the worker check the marts (dbt has let go of the working warehouse)."""
        self.waiting += 1
        self._send(("marts", self.chosen, None))

    def marts_verdict(self) -> None:
        self._verdict("marts")

    def _verdict(self, stage: str) -> None:
        code, report = self._receive()
        with self.log.open("a", encoding="utf-8") as handle:
            handle.write(report)
        if code != 0:
            print("\n" + report.rstrip(), flush=True)
            raise GateFailed(f"the {stage} quality checks failed (report above and in {self.log}); "
                             "nothing was published")

    def _receive(self) -> tuple[int, str]:
        if self.send_error is None:
            try:
                answer: tuple[int, str] = self.worker.pipe.recv()
                self.waiting -= 1
                return answer
            except (EOFError, OSError):
                pass
        self.worker.process.join(timeout=5)
        code = self.worker.process.exitcode
        _discard_worker()
        self.waiting = 0
        return 1, f"the quality gate process ended without a verdict (exit code {code})\n"

    def stop(self) -> None:
        """End this run: a worker still owing an answer (a run cut short) is stopped, so its
        answer never reaches the next run; an idle worker stays for the next run."""
        self.sender.join()
        if self.waiting:
            _discard_worker()
