"""The related marts as dbt builds them (`--select +tag:related` only) on the small synthetic
venue, and the checks that refuse a computation made from other texts, labels or settings than
the build's: each guard is seen failing here, then passing once `paperrank related` ran again."""

from __future__ import annotations

import duckdb
import pytest
from project import InProcessDbt, Project, rows, warehouse_copy

from paperrank.related.refresh import refresh

pytestmark = pytest.mark.e2e
TAXONOMY = "icml2026"
SELECT = ["--select", "+tag:related", "--indirect-selection", "cautious"]


@pytest.fixture(scope="module")
def venue(synthetic_loaded: Project, tmp_path_factory: pytest.TempPathFactory) -> Project:
    project = warehouse_copy(synthetic_loaded, tmp_path_factory.mktemp("related_dbt"))
    refresh(project.db, taxonomy=TAXONOMY, say=lambda line: None)
    return project


@pytest.fixture(scope="module")
def dbt(venue: Project) -> InProcessDbt:
    """dbt on the venue, the related marts and what they read built first, so that each test
    (alone or after the others) finds the views and tables its checks read."""
    runner = InProcessDbt(venue)
    printed = build(runner)
    if printed:
        pytest.fail(f"the related marts did not build:\n{printed[-3000:]}")
    return runner


def build(dbt: InProcessDbt, *select: str, command: str = "build", **settings: object) -> str:
    """dbt `command` of the related models (or `select`); what it printed when it failed."""
    result = dbt(command, *(select or SELECT), "--vars", str({"taxonomy": TAXONOMY, **settings}), check=False)
    return "" if result.returncode == 0 else result.stdout


def check(dbt: InProcessDbt, *tests: str) -> str:
    """Only these singular tests, on what is built."""
    return build(dbt, "--select", " ".join(tests), command="test")


def failed(printed: str) -> set[str]:
    """The names of the tests a dbt run reports failing."""
    return {line.split("Failure in test ")[1].split(" ")[0] for line in printed.splitlines()
            if "Failure in test " in line}


def test_the_marts_build_and_cover_every_ranked_paper(venue: Project, dbt: InProcessDbt) -> None:
    ranked = rows(venue.db, "select count(*) from marts.paper_rankings")[0][0]
    assert ranked > 0
    assert rows(venue.db, "select count(*) from marts.paper_subthemes p inner join marts.paper_rankings r "
                          "using (venue, paper_id)") == [(ranked,)]
    per_paper = rows(venue.db, "select max(n), min(n) from (select count(*) as n from marts.paper_related "
                               "group by paper_id)")
    assert per_paper == [(5, 5)]
    assert rows(venue.db, "select count(*) from marts.label_audit where is_disputed is null") == [(0,)]
    assert rows(venue.db, "select count(*) > 0 from marts.category_subthemes") == [(True,)]
    # the maps: every accepted paper on the venue's, every paper of a ranked category on its own
    accepted = rows(venue.db, "select count(*) from raw.papers where is_accepted")[0][0]
    assert rows(venue.db, "select count(*) from marts.paper_map_positions where map_category is null") == [
        (accepted,)]
    assert rows(venue.db, "select count(*) from marts.paper_map_positions p inner join marts.paper_subthemes s "
                          "on p.paper_id = s.paper_id and p.map_category = s.category") == rows(
        venue.db, "select count(*) from marts.paper_subthemes")
    maps = rows(venue.db, "select map_category, trustworthiness from marts.map_trustworthiness")
    assert len(maps) == 1 + rows(venue.db, "select count(distinct category) from marts.paper_subthemes")[0][0]
    assert all(t is None or 0 < t <= 1 for _, t in maps)


def test_a_build_asking_for_more_related_papers_than_computed_fails(dbt: InProcessDbt) -> None:
    assert "related__enough_related_papers_computed" in failed(
        build(dbt, "--select", "related__enough_related_papers_computed", command="test", related_papers=7))


def test_an_edited_abstract_fails_the_build_until_recomputed(venue: Project, dbt: InProcessDbt) -> None:
    con = duckdb.connect(str(venue.db))
    paper = con.execute("select min(paper_id) from raw.papers").fetchall()[0][0]
    con.execute("update raw.papers set abstract = abstract || ' Edited.' where paper_id = ?", [paper])
    con.close()
    guard = "related__computed_from_the_current_texts"  # reads views: no model to rebuild
    printed = check(dbt, guard)
    assert guard in failed(printed), printed[-3000:]
    assert [r.part for r in refresh(venue.db, taxonomy=TAXONOMY, say=lambda line: None) if r.computed] == [
        "related", "subthemes", "layouts", "audit"]
    assert check(dbt, guard) == ""


def test_a_new_label_fails_the_build_until_recomputed(venue: Project, dbt: InProcessDbt) -> None:
    con = duckdb.connect(str(venue.db))
    # a ranked paper moved to another ranked category by a newer label of the same model
    paper, category = con.execute(
        "select paper_id, category from raw.paper_labels where category = 'Agentic AI' order by paper_id "
        "limit 1").fetchall()[0]
    con.execute("insert into raw.paper_labels select paper_id, taxonomy, 'Physical AI', confidence, rationale, "
                "model, prompt_hash, source, labeled_at + interval 1 day, record_hash || 'x', loaded_at "
                "from raw.paper_labels where paper_id = ? and category = ?", [paper, category])
    con.close()
    models = ["--select", "int_papers_categorized paper_rankings category_subthemes paper_subthemes label_audit "
                          "paper_map_positions"]
    guards = ("related__every_ranked_paper_has_a_subtheme", "related__label_audit_covers_the_labels")
    assert build(dbt, *models, command="run") == ""
    printed = check(dbt, *guards)
    assert set(guards) <= failed(printed), printed[-3000:]
    assert [r.part for r in refresh(venue.db, taxonomy=TAXONOMY, say=lambda line: None) if r.computed] == [
        "subthemes", "layouts", "audit"]
    assert build(dbt, *models, command="run") == ""
    assert check(dbt, *guards) == ""


def test_a_paper_missing_from_its_map_fails_the_build_until_recomputed(venue: Project, dbt: InProcessDbt) -> None:
    models = ["--select", "paper_subthemes paper_map_positions"]
    guard = "related__every_paper_on_its_maps"
    assert build(dbt, *models, command="run") == "" and check(dbt, guard) == ""
    con = duckdb.connect(str(venue.db))
    paper = con.execute("select min(paper_id) from derived.paper_layouts where layout_category <> ''").fetchall()[0][0]
    con.execute("delete from derived.paper_layouts where paper_id = ? and layout_category <> ''", [paper])
    con.close()
    assert build(dbt, *models, command="run") == ""
    printed = check(dbt, guard)
    assert guard in failed(printed), printed[-3000:]
    con = duckdb.connect(str(venue.db))
    con.execute("delete from derived.computations where part = 'layouts'")  # so that refresh computes them
    con.close()
    assert [r.part for r in refresh(venue.db, taxonomy=TAXONOMY, say=lambda line: None) if r.computed] == ["layouts"]
    assert build(dbt, *models, command="run") == ""
    assert check(dbt, guard) == ""
