"""paper_rankings is bit-for-bit the same on every build and with any number of DuckDB threads.

Floating-point sums depend on the order rows arrive in, and parallel scans change that order
from run to run and with the thread count: summed naively, per-category means and spreads move
in the last bits, and near-ties can swap ranks. The venue here is large enough that they do
(more than one DuckDB row group of reviews and, at 2 threads, parallel scans). A correctness
test, not a timing."""

from __future__ import annotations

import hashlib

import duckdb
import numpy as np
import pytest
from project import Project

from bench.raw_layer import write_synthetic

pytestmark = pytest.mark.e2e  # dbt builds of the ranking
PAPERS = 60_000
ROW_GROUP = 122_880  # DuckDB's rows per row group: parallel scans split at these
FLOATS = [
    "contribution_mean", "rating_mean", "confidence_mean", "soundness_mean", "presentation_mean",
    "rating_std", "z_contribution_mean", "z_rating_mean", "z_confidence_mean",
    "z_soundness_mean", "z_presentation_mean", "z_rating_std", "local_top_overall",
]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    scratch = tmp_path_factory.mktemp("repeatable")
    project = Project(scratch / "warehouse.duckdb", scratch)
    _, reviews = write_synthetic(project.db, PAPERS, seed=11, shape="ranked")
    assert reviews > 2 * ROW_GROUP
    return project


def build(project: Project, threads: int) -> str:
    """Build the ranking with `threads` DuckDB threads; a digest of its bits, in paper_id order."""
    with pytest.MonkeyPatch.context() as patch:  # read by profiles.yml at each dbt command
        patch.setenv("PAPERRANK_DUCKDB_THREADS", str(threads))
        project.dbt_in_process("build", "--select", "+paper_rankings", "--exclude", "resource_type:test",
                               "resource_type:unit_test", dbt_vars="{taxonomy: icml2026}")
    con = duckdb.connect(str(project.db), read_only=True)
    try:
        rows = con.execute(
            f"select paper_id, category, category_rank, {', '.join(FLOATS)} "
            "from marts.paper_rankings order by paper_id").fetchnumpy()
    finally:
        con.close()
    assert len(rows["paper_id"]) > PAPERS // 2
    digest = hashlib.sha256()
    for column in ("paper_id", "category"):
        digest.update("\n".join(rows[column].tolist()).encode())
    digest.update(np.ascontiguousarray(rows["category_rank"], dtype=np.int64).tobytes())
    for column in FLOATS:
        values = np.ascontiguousarray(np.ma.filled(rows[column], np.nan), dtype=np.float64)
        digest.update(values.view(np.uint64).tobytes())  # the float bits, not their rounding
    return digest.hexdigest()


def test_same_bits_on_every_run_and_thread_count(project: Project) -> None:
    two_threads = build(project, 2)
    assert build(project, 2) == two_threads, "a second build at 2 threads changed bits"
    assert build(project, 1) == two_threads, "1 thread and 2 threads disagree in the bits"
