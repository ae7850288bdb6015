"""Seeds and expert picks, run as an operator runs them (`make build` on a copy of the
project, real dbt on a throw-away copy of the library's small venue, with few replicates):

- a malformed seed row stops the build with one line naming the file and line;
- a failing dbt test on a seed prints the offending rows and their CSV lines;
- picks are per expert (two experts may pick one paper, and the mart counts them), a pick of
  an excluded paper carries excluded_papers' reason, and the picks carry venue, title,
  authors, abstract and the label's rationale.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import duckdb
import pytest
from project import BIN, FEW_REPLICATES, REPO, Project, warehouse_copy

pytestmark = pytest.mark.e2e

TAXONOMY = "icml2026"
HEADER = "venue,paper_id,category,selected_by,note\n"
VENUE = "SYNTH 2026"
AUTHORS = "Ada Lovelace; Émilie du Châtelet"


def project_copy(root: Path) -> Path:
    """The dbt project (models, seeds, macros, tests, Makefile) in `root`, so a test can edit
    its seeds; the Python packages stay installed from the repository."""
    for name in ("models", "macros", "seeds", "tests"):
        shutil.copytree(REPO / name, root / name, ignore=shutil.ignore_patterns("python"))
    for name in ("dbt_project.yml", "profiles.yml", "Makefile"):
        shutil.copy(REPO / name, root / name)
    return root


def make_build(project: Project) -> subprocess.CompletedProcess[str]:
    """`make build` in the copy, with the repository's virtualenv (setup is not redone) and few
    uncertainty replicates (make's own settings: these tests read the seeds, the picks and the
    marts' columns, not the uncertainty)."""
    return project.run("make", "--no-print-directory", "-o", "setup", "build",
                       f"VENV={BIN.parent}", f"TAXONOMY={TAXONOMY}",
                       *(f"{name.upper()}={value}" for name, value in FEW_REPLICATES.items()), check=False)


@pytest.fixture(scope="module")
def loaded(small_loaded: Project, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """A warehouse with the small synthetic venue and its labels (a copy of the session's,
    conftest.py: 80 papers, the primary-area override used), and authors on every paper (as the
    loaders write them into raw.papers.authors), not yet built by dbt."""
    project = warehouse_copy(small_loaded, tmp_path_factory.mktemp("picks"))
    con = duckdb.connect(str(project.db))
    try:
        con.execute("update raw.papers set authors = ?", [AUTHORS])
        con.execute("update raw.paper_labels set rationale = 'because ' || paper_id")
    finally:
        con.close()
    return project


def built_copy(loaded: Project, tmp_path: Path, selections: str) -> Project:
    """A copy of the project with `selections` as its expert picks, on a copy of the loaded
    warehouse."""
    root = project_copy(tmp_path / "project")
    (root / "seeds" / "expert_selections.csv").write_text(selections, encoding="utf-8")
    db = tmp_path / "w.duckdb"
    shutil.copy(loaded.db, db)
    return Project(db, tmp_path, root=root)


def query(project: Project, sql: str) -> list[tuple]:
    con = duckdb.connect(str(project.db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_shipped_seeds_pass_the_check() -> None:
    result = subprocess.run([str(BIN / "python"), "-m", "paperrank", "quality", "seeds"], cwd=REPO,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "seed check passed" in result.stdout


def test_malformed_seed_row_is_one_line_and_dbt_never_starts(tmp_path: Path) -> None:
    root = project_copy(tmp_path / "project")
    (root / "seeds" / "expert_selections.csv").write_text(
        HEADER + f"{VENUE},p1,Agentic AI,ana,fine\n{VENUE},p2,Agentic AI,bo\n", encoding="utf-8")
    result = make_build(Project(tmp_path / "w.duckdb", tmp_path, root=root))
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert ("seeds/expert_selections.csv line 3: 4 fields, expected 5 "
            "(venue, paper_id, category, selected_by, note)") in output
    assert "Traceback" not in output and "Running with dbt" not in output
    assert not (tmp_path / "w.duckdb").exists()


@pytest.mark.parametrize(("seed", "edit", "expected"), [
    pytest.param("taxonomies.csv", (",true,true,1,", ",yes,true,1,"),
                 "seeds/taxonomies.csv line 2: is_ranked 'yes' is not a boolean (true or false)",
                 id="bad-boolean"),
    pytest.param("composite_weights.csv", (",0.40,", ",0.4O,"),
                 "seeds/composite_weights.csv line 2: weight '0.4O' is not a number (double)",
                 id="bad-number"),
    pytest.param("primary_area_overrides.csv", ("override)\"\n", "override)\n"),
                 "seeds/primary_area_overrides.csv line 2: ',' expected after '\"' (an unclosed",
                 id="unclosed-quote"),
])
def test_seed_checker_names_file_line_and_value(tmp_path: Path, seed: str,
                                                edit: tuple[str, str], expected: str) -> None:
    root = project_copy(tmp_path / "project")
    path = root / "seeds" / seed
    path.write_text(path.read_text(encoding="utf-8").replace(*edit, 1), encoding="utf-8")
    result = subprocess.run([str(BIN / "python"), "-m", "paperrank", "quality", "seeds"], cwd=root,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 1, result.stdout + result.stderr
    assert expected in result.stdout, result.stdout


@pytest.fixture(scope="module")
def broken_seeds(loaded: Project, tmp_path_factory: pytest.TempPathFactory
                 ) -> tuple[Project, subprocess.CompletedProcess[str], str]:
    """`make build` on a copy whose seeds fail three of dbt's seed tests, each read by a test of
    its own: one expert picks a paper twice (expert_selections' unique test), a second
    weight set (not the one built with, which the settings check would refuse first) weighs a
    signal that does not exist (composite_weights' accepted_values test: only the seed's own dbt
    test catches it), and a known primary area has no venue family (known_primary_areas'
    not-null test). dbt's summary counts exactly these three errors, so each alone stops the
    build. The project, what make printed and the paper picked twice."""
    paper = query(loaded, "select min(paper_id) from raw.papers where is_accepted")[0][0]
    project = built_copy(loaded, tmp_path_factory.mktemp("broken_seeds"),
                         HEADER + f"{VENUE},{paper},Agentic AI,ana,first\n"
                         f"{VENUE},{paper},Agentic AI,bo,other expert\n"
                         f"{VENUE},{paper},AI Systems,ana,again\n")
    weights = project.root / "seeds" / "composite_weights.csv"
    weights.write_text(weights.read_text(encoding="utf-8") + 'trial_2027,novelty,1.0,"a typo"\n',
                       encoding="utf-8")
    areas = project.root / "seeds" / "known_primary_areas.csv"
    areas.write_text(areas.read_text(encoding="utf-8") + ",an area of no venue\n", encoding="utf-8")
    result = make_build(project)
    assert result.returncode != 0
    assert " ERROR=3 " in result.stdout, result.stdout[-3000:]  # these three tests, nothing else
    return project, result, paper


def test_duplicate_pick_by_one_expert_names_the_rows_and_lines(
        broken_seeds: tuple[Project, subprocess.CompletedProcess[str], str]) -> None:
    project, result, paper = broken_seeds
    assert result.returncode != 0
    test = "expert_selections_unique_venue_selected_by_paper_id"
    assert (f"FAILED  dbt test {test} "
            "on seed expert_selections (seeds/expert_selections.csv)") in result.stdout
    assert (f"venue='{VENUE}', selected_by='ana', paper_id='{paper}', row_count=2   "
            "(seeds/expert_selections.csv lines 2, 4)") in result.stdout
    # the rows stay queryable after the run
    assert query(project, f"select selected_by, paper_id from dbt_test__audit.{test}") == [
        ("ana", paper)]


def test_failing_builtin_test_on_a_seed_names_the_line(
        broken_seeds: tuple[Project, subprocess.CompletedProcess[str], str]) -> None:
    project, result, _ = broken_seeds
    weights = project.root / "seeds" / "composite_weights.csv"
    line = weights.read_text(encoding="utf-8").splitlines().index(
        next(x for x in weights.read_text(encoding="utf-8").splitlines() if ",novelty," in x)) + 1
    assert result.returncode != 0
    assert "dbt test accepted_values_composite_weights_signal" in result.stdout
    assert f"value_field='novelty', n_records=1   (seeds/composite_weights.csv line {line})" \
        in result.stdout


def test_a_null_in_a_seed_names_its_line(
        broken_seeds: tuple[Project, subprocess.CompletedProcess[str], str]) -> None:
    """A seed's not-null columns are one test per seed (tests/generic/not_null_rows.sql) whose
    failing rows are the seed's own, so the line is named as dbt's not_null per column did."""
    project, result, _ = broken_seeds
    lines = (project.root / "seeds" / "known_primary_areas.csv").read_text(encoding="utf-8").splitlines()
    assert ("FAILED  dbt test not_null_rows_known_primary_areas on seed known_primary_areas "
            "(seeds/known_primary_areas.csv)") in result.stdout, result.stdout[-3000:]
    assert (f"venue_family=null, primary_area='an area of no venue'   "
            f"(seeds/known_primary_areas.csv line {len(lines)})") in result.stdout, result.stdout[-3000:]


@pytest.fixture(scope="module")
def picked(loaded: Project, tmp_path_factory: pytest.TempPathFactory) -> tuple[Project, str, str]:
    """`make build` on a copy of the loaded venue whose seed holds three picks: two experts pick
    one ranked paper, and one of them a paper the primary-area override excludes. The project,
    the ranked paper and the excluded one; read by the picks test and by the
    marts test (the marts' columns and comments are the same with or without picks)."""
    ranked = query(loaded, "select min(paper_id) from raw.papers where is_accepted "
                   "and primary_area not ilike 'datasets%'")[0][0]
    overridden = query(loaded, "select min(paper_id) from raw.papers "
                       "where is_accepted and primary_area = 'datasets and benchmarks'")[0][0]
    project = built_copy(loaded, tmp_path_factory.mktemp("picked"),
                         HEADER + f"{VENUE},{ranked},Agentic AI,ana,\n"
                         f"{VENUE},{ranked},Agentic AI,bo,\n{VENUE},{overridden},Agentic AI,bo,\n")
    result = make_build(project)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    return project, ranked, overridden


def test_picks_are_per_expert_and_say_why_an_excluded_paper_is_not_ranked(
        picked: tuple[Project, str, str]) -> None:
    project, ranked, overridden = picked
    picks = query(project, "select paper_id, selected_by, venue, expert_count, exclusion_reason, "
                  "flag_reason, authors, title is not null, abstract is not null, label_rationale "
                  "from marts.expert_picks order by paper_id, selected_by")
    detail = query(project, "select exclusion_detail from marts.excluded_papers "
                   f"where paper_id = '{overridden}'")[0][0]
    by_key = {(p[0], p[1]): p for p in picks}
    assert len(picks) == 3
    assert by_key[(ranked, "ana")][3] == by_key[(ranked, "bo")][3] == 2
    assert by_key[(overridden, "bo")][3] == 1
    assert by_key[(overridden, "bo")][4] == "primary_area_override"
    assert by_key[(overridden, "bo")][5] == f"paper is not ranked: {detail}"
    assert "overridden into Datasets & Benchmarks" in detail
    for pick in picks:
        assert pick[2] == VENUE
        assert pick[6:9] == (AUTHORS, True, True)
        assert pick[9] == f"because {pick[0]}"


def test_marts_carry_what_a_paper_is(picked: tuple[Project, str, str]) -> None:
    project = picked[0]
    # (int_papers_categorized keeps no long texts: the marts join them from stg_raw__papers)
    for relation in ("marts.paper_rankings", "marts.category_top_n", "marts.excluded_papers"):
        rows = query(project, f"select count(*), count(*) filter (where authors = '{AUTHORS}' "
                     "and title is not null and abstract is not null "
                     "and label_rationale = 'because ' || paper_id) from " + relation)
        assert rows[0][0] > 0 and rows[0][0] == rows[0][1], relation
    history = query(project, "select count(*), count(venue) from marts.paper_score_history")
    assert history[0][0] > 0 and history[0][0] == history[0][1]
    # what an analyst reads beside the columns (dbt persists the docs as column comments)
    scores = query(project, "select table_name, column_name, comment from duckdb_columns() "
                   "where schema_name = 'marts' and column_name like '%local_top_overall'")
    assert {t for t, _, _ in scores} == {"paper_rankings", "category_top_n", "expert_picks",
                                         "category_summary", "paper_rank_uncertainty",
                                         "paper_posterior_rankings"}
    for table, column, comment in scores:
        assert "standard deviations" in comment and "average" in comment, (table, column)
    # the shortlist flag has one name wherever it appears
    flags = query(project, "select table_name, column_name from duckdb_columns() "
                  "where schema_name = 'marts' and (column_name = 'is_top_n' "
                  "or column_name like 'is%in%top_n')")
    # no is_in_top_n anywhere (the rank sets' is_possibly_top_n and is_certainly_top_n are other
    # flags, with names of their own)
    assert [flag for flag in flags
            if flag[1] not in ("is_top_n", "is_possibly_top_n", "is_certainly_top_n")] == []
    assert {"category_top_n", "expert_picks", "paper_rankings"} <= {table for table, _ in flags}
