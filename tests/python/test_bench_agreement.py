"""The ranking benchmark's three implementations (the project's dbt models, the one-statement
DuckDB limit, pandas) agree on a small synthetic venue. A correctness test, not a timing."""

from __future__ import annotations

from pathlib import Path

import pytest
from project import Project

from bench import check, limit, pandas_impl, seeds
from bench.raw_layer import write_synthetic

pytestmark = pytest.mark.e2e  # dbt builds of the ranking
PAPERS = 2_000


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Project:
    scratch = tmp_path_factory.mktemp("bench")
    project = Project(scratch / "warehouse.duckdb", scratch)
    papers, reviews = write_synthetic(project.db, PAPERS, seed=7)
    assert papers == PAPERS and 3 * PAPERS <= reviews <= 6 * PAPERS
    project.dbt("build", "--select", "+paper_rankings", "--exclude", "resource_type:test",
                "resource_type:unit_test", "--vars", "{taxonomy: icml2026}")
    return project


def project_rankings(project: Project):
    return check.read_table(project.db, "marts.paper_rankings")


def test_project_ranks_the_five_icml_categories(built: Project) -> None:
    ranked = project_rankings(built)
    assert set(ranked["category"]) == set(seeds.load("icml2026").ranked)
    assert len(ranked) > PAPERS * 0.25


def test_limit_agrees_with_project(built: Project) -> None:
    limit.run(built.db, seeds.load("icml2026"))
    assert check.differences(project_rankings(built),
                             check.read_table(built.db, limit.TABLE)) == []


def test_pandas_agrees_with_project(built: Project, tmp_path: Path) -> None:
    papers, reviews, labels = pandas_impl.read_raw(built.db, "icml2026")
    ranked = pandas_impl.rank(papers, reviews, labels, seeds.load("icml2026"))
    assert check.differences(project_rankings(built), ranked[check.KEY]) == []


def test_check_notices_a_swapped_rank(built: Project) -> None:
    expected = project_rankings(built)
    broken = expected.copy()
    first = broken.index[broken["category_rank"] == 1][0]
    second = broken.index[(broken["category_rank"] == 2)
                          & (broken["category"] == broken.at[first, "category"])][0]
    broken.loc[[first, second], "category_rank"] = [2, 1]
    assert any("another rank" in p for p in check.differences(expected, broken))
