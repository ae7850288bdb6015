"""bench.measure.sql_seconds: the one reading of dbt's log every benchmark uses."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.measure import sql_seconds

LOG = """\
23:10:01.000001 [debug] [MainThread]: SQL status: OK in 0.250 seconds
23:10:02.000001 [debug] [Thread-1 (]: SQL status: OK in 1.500 seconds
23:10:02.500001 [debug] [Thread-2 (]: SQL status: OK in 0.125 seconds
23:10:03.000001 [debug] [Thread-1 (]: Began executing node model.paperrank.paper_rankings
23:10:04.000001 [debug] [MainThread]: SQL status: OK in 2.000 seconds
"""


@pytest.fixture()
def logs(tmp_path: Path) -> Path:
    (tmp_path / "dbt.log").write_text(LOG, encoding="utf-8")
    return tmp_path


def test_every_statement_counts_by_default(logs: Path) -> None:
    assert sql_seconds(logs) == pytest.approx(3.875)


def test_workers_only_leaves_out_the_main_threads_hooks(logs: Path) -> None:
    assert sql_seconds(logs, workers_only=True) == pytest.approx(1.625)
