"""The quality gates of `make rank`, in one child process beside dbt.

Importing great-expectations takes seconds, and dbt cannot open the working warehouse while
another process reads it.  So this process reads the raw tables first (read-only, closed at
once), then starts one child (spawned, not forked: DuckDB has threads running here by then)
that imports great-expectations and checks them while dbt builds here; when the build is done
the child checks the marts (read-only, dbt has let go of the file).  Nothing is published
unless both verdicts pass, in that order.  Each report goes to the pipeline's log, and to the
screen when its gate fails.  The child ends with the pipeline: if this process dies, the
child's pipe closes and it stops.
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing
import os
import sys
from multiprocessing.connection import Connection
from pathlib import Path

import pandas as pd

from paperrank.core.errors import CheckFailed
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


def _child(pipe: Connection, chosen: Settings, raw: dict[str, pd.DataFrame]) -> None:
    """The gate process: raw verdict now, marts verdict when told the build is done."""
    main = sys.modules["__main__"]
    if getattr(main, "__spec__", None) is None and not hasattr(main, "__file__"):
        # spawned from `python -c`, this process's __main__ has no file; pyspark (installed with
        # the Spark extra, imported by great-expectations) takes that for a doctest run and
        # exits the process without a word
        main.__file__ = "<paperrank quality gates>"
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)  # library chatter; the reports travel through the pipe
    pipe.send(_check("raw", chosen, raw))
    try:
        if pipe.recv() != "marts":
            return
    except EOFError:
        return
    pipe.send(_check("marts", chosen, None))


class Gates:
    """Start with the raw tables read; `raw()` and `marts()` give the verdicts."""

    def __init__(self, chosen: Settings, log: Path) -> None:
        from paperrank.core.warehouse import db_path
        from paperrank.quality.frames import read_stage

        self.log = log
        frames = read_stage("raw", db_path(), chosen.taxonomy)
        spawn = multiprocessing.get_context("spawn")
        self.pipe, child_end = spawn.Pipe()
        self.child = spawn.Process(target=_child, args=(child_end, chosen, frames),
                                   name="paperrank-gates", daemon=True)
        self.child.start()
        child_end.close()  # the frames went to the child; this end is the child's

    def raw(self) -> None:
        self._verdict("raw")

    def marts(self) -> None:
        self.pipe.send("marts")
        self._verdict("marts")

    def _verdict(self, stage: str) -> None:
        try:
            code, report = self.pipe.recv()
        except EOFError:
            self.child.join(timeout=5)
            code, report = 1, ("the quality gate process ended without a verdict "
                               f"(exit code {self.child.exitcode})\n")
        with self.log.open("a", encoding="utf-8") as handle:
            handle.write(report)
        if code != 0:
            print("\n" + report.rstrip(), flush=True)
            raise GateFailed(f"the {stage} quality checks failed (report above and in {self.log}); "
                             "nothing was published")

    def stop(self) -> None:
        """Close the pipe (a waiting child then ends) and reap the child."""
        self.pipe.close()
        self.child.join(timeout=5)
        if self.child.is_alive():
            self.child.kill()
            self.child.join()
