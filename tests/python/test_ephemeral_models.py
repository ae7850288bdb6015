"""Two of the ranking's inputs are ephemeral on DuckDB: CTEs of their readers, with no relation of
their own in the warehouse. A view that a build from before they were ephemeral left behind would go
on answering with the old SQL and that build's settings, so every run drops it
(macros/operations/drop_ephemeral_relations.sql), and touches nothing else.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from project import Project, execute, few_replicates, rows, warehouse_copy

pytestmark = pytest.mark.e2e

EPHEMERAL = ("int_paper_labels_deduplicated", "int_reviews_aggregated")


def views(db: Path) -> set[tuple[str, str]]:
    return set(rows(db, "select schema_name, view_name from duckdb_views() where not internal"))


def test_a_view_left_by_a_model_now_ephemeral_is_dropped_and_nothing_else(
        synthetic_built: Project, tmp_path: Path) -> None:
    project = warehouse_copy(synthetic_built, tmp_path)
    assert not {("intermediate", name) for name in EPHEMERAL} & views(project.db)
    execute(project.db, """
        create view intermediate.int_reviews_aggregated as select 'p1' as paper_id;
        create view intermediate.analysts_reviews as select 'p1' as paper_id;
        create schema scratch;
        create view scratch.int_reviews_aggregated as select 'p1' as paper_id""")
    project.dbt_in_process("run", "--select", "stg_raw__reviews", dbt_vars=few_replicates())
    left = views(project.db)
    assert ("intermediate", "int_reviews_aggregated") not in left
    assert {("intermediate", "analysts_reviews"), ("scratch", "int_reviews_aggregated"),
            ("intermediate", "int_weight_set"), ("staging", "stg_raw__reviews")} <= left
