"""The quality gates' worker: a dead worker is a failed gate at once, never a hang; one worker
serves every run of a process.

Before, the raw frames travelled in the worker's start-up pipe: when the worker died before
reading them (spawned from a pytest-xdist worker), the pipeline sat in write() forever. Now the
worker starts with no arguments, gets each request (a few names) through its own pipe and reads
the tables itself while dbt starts.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from project import Project, execute, warehouse_copy

from paperrank.core.errors import PaperrankError
from paperrank.pipeline import gates
from paperrank.pipeline.gates import GateFailed, Gates
from paperrank.pipeline.settings import Settings

SETTINGS = Settings(taxonomy="icml2026", profile="iclr2026")


def start(project: Project, log: Path) -> Gates:
    with project.environment():
        return Gates(SETTINGS, log)


def test_one_worker_checks_every_run_of_a_process(synthetic_loaded: Project, tmp_path: Path) -> None:
    log = tmp_path / "pipeline.log"
    first = start(synthetic_loaded, log)
    try:
        first.raw()
    finally:
        first.stop()
    worker, reported = first.worker.process.pid, log.stat().st_size
    second = start(synthetic_loaded, log)
    try:
        second.raw()
        assert second.worker.process.pid == worker  # great-expectations imported once
    finally:
        second.stop()
    assert log.stat().st_size > reported > 0  # both verdicts reported


def test_a_dead_worker_fails_the_gate_instead_of_hanging(synthetic_loaded: Project, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker killed before it reads the raw tables: waiting for them (dbt must not open the
    warehouse before) and for the verdict is a failed gate within seconds, not a hang, and the
    next run starts a new worker."""
    gates._discard_worker()
    worker = gates._worker()
    os.kill(worker.process.pid, signal.SIGKILL)
    worker.process.join()
    monkeypatch.setattr(gates, "_worker", lambda: worker)
    checked = start(synthetic_loaded, tmp_path / "pipeline.log")
    monkeypatch.undo()
    verdict: list[BaseException] = []

    def receive() -> None:
        try:
            checked.raw()
        except BaseException as error:  # noqa: BLE001 - the verdict is what the test reads
            verdict.append(error)

    waiting = threading.Thread(target=receive, daemon=True)
    waiting.start()
    waiting.join(timeout=60)
    assert not waiting.is_alive(), "the pipeline hung on a dead gate worker"
    checked.stop()
    assert len(verdict) == 1 and isinstance(verdict[0], GateFailed), verdict
    assert "ended before it read the raw tables" in str(verdict[0])
    again = start(synthetic_loaded, tmp_path / "pipeline.log")
    try:
        again.raw()
        assert again.worker.process.pid != checked.worker.process.pid
    finally:
        again.stop()


def test_a_raw_layer_the_worker_cannot_read_is_refused_before_dbt_starts(
        synthetic_loaded: Project, tmp_path: Path) -> None:
    """The worker reads the raw tables itself: what stops the read (here the working warehouse
    is gone) reaches the pipeline as one PaperrankError when it waits for the release, before
    dbt would open the file; no verdict is owed after it, so the worker serves the next run."""
    project = warehouse_copy(synthetic_loaded, tmp_path)
    project.db.unlink()
    refused = start(project, tmp_path / "pipeline.log")
    with pytest.raises(PaperrankError, match="could not be read|does not exist") as raised:
        refused.released()
    assert str(project.db) in str(raised.value) or project.db.name in str(raised.value)
    with pytest.raises(PaperrankError):
        refused.raw()  # the same refusal, never a wait for a verdict
    assert refused.waiting == 0
    refused.stop()
    again = start(synthetic_loaded, tmp_path / "pipeline.log")
    try:
        again.raw()
        assert again.worker.process.pid == refused.worker.process.pid
    finally:
        again.stop()


def test_a_run_cut_short_never_hands_its_verdict_to_the_next(synthetic_loaded: Project,
                                                              tmp_path: Path) -> None:
    """A run that stops before reading its raw verdict (an interrupted build) ends its worker,
    so the next run cannot read the old verdict as its own."""
    cut = start(synthetic_loaded, tmp_path / "pipeline.log")
    cut.stop()  # the raw verdict was never read
    assert gates._WORKER is None and not cut.worker.process.is_alive()


@pytest.mark.e2e  # built by `paperrank rank` (dbt): the library's synthetic_built
def test_each_check_reads_the_warehouse_of_its_own_run(synthetic_built: Project, tmp_path: Path) -> None:
    """One worker serves every run of a process, and each run's checks read that run's
    warehouse: the worker started for a clean build, then a run on a copy whose composite is
    NaN fails its mart checks (before, the worker kept the first run's PAPERRANK_DB and passed)."""
    gates._discard_worker()
    with synthetic_built.environment():  # as a run of the pipeline: its settings throughout
        clean = Gates(SETTINGS, tmp_path / "clean.log")
        try:
            clean.raw()
            clean.start_marts()
            clean.marts_verdict()
        finally:
            clean.stop()
    broken = warehouse_copy(synthetic_built, tmp_path / "broken")
    execute(broken.db, "update intermediate.int_papers_ranked set local_top_overall = 'nan'::double "
                       "where paper_id = (select min(paper_id) from intermediate.int_papers_ranked)")
    with broken.environment():
        checked = Gates(SETTINGS, tmp_path / "broken.log")
        try:
            assert checked.worker.process.pid == clean.worker.process.pid  # the same worker
            checked.raw()
            checked.start_marts()
            with pytest.raises(GateFailed, match="marts quality checks failed"):
                checked.marts_verdict()
        finally:
            checked.stop()
    assert "local_top_overall" in (tmp_path / "broken.log").read_text(encoding="utf-8")


ENDED = textwrap.dedent("""
    import sys
    from pathlib import Path
    from paperrank.pipeline import gates
    from paperrank.pipeline.settings import Settings

    run = gates.Gates(Settings(taxonomy="icml2026", profile="iclr2026"), Path(sys.argv[1]))
    run.raw()
    run.stop()
    worker = run.worker
    gates._discard_worker()  # what this process's exit does: the pipe closes, the worker ends
    print(worker.process.exitcode)
""")


def test_the_worker_ends_at_once_and_cleanly(synthetic_loaded: Project, tmp_path: Path) -> None:
    """The worker ends without the interpreter's teardown of great-expectations (which the
    caller's exit waited for), and still runs its exit handlers: multiprocessing's release the
    semaphore great-expectations made, or the resource tracker would warn of a leak when the
    caller ends."""
    ended = subprocess.run([sys.executable, "-c", ENDED, str(tmp_path / "pipeline.log")],
                           env=synthetic_loaded.env, cwd=synthetic_loaded.root,
                           capture_output=True, text=True, timeout=300)
    assert ended.returncode == 0, ended.stderr[-3000:]
    assert ended.stdout.strip() == "0"
    assert "leaked" not in ended.stderr, ended.stderr[-3000:]


def test_dbt_opens_the_warehouse_only_once_the_worker_let_go_of_it() -> None:
    """`rank.build` starts dbt (its import and saved parse) beside the worker's reads, and opens
    the working warehouse (the build) only once the worker has released it: DuckDB lets no
    writer in while another process reads the file."""
    from paperrank.pipeline import rank

    order: list[str] = []

    class StartedDbt:
        @property
        def manifest(self) -> None:
            order.append("dbt started")

        def invoke(self, *command: str) -> None:
            order.append(f"dbt {command[0]}")

    rank.build(StartedDbt(), "duckdb", (), lambda: order.append("released"))  # type: ignore[arg-type]
    assert order == ["dbt started", "released", "dbt build"]
