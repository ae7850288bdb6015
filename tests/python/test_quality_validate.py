"""`paperrank validate` on a small synthetic warehouse: the clean one passes, and each
way of breaking it on purpose stops the gate with the table and column named.

The warehouse is the session's built synthetic venue (synthetic venue -> load -> import its true
themes -> dbt build, conftest.py); each test breaks a copy, so tests stay independent and the
suite stays fast.
"""

from __future__ import annotations

import html
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import duckdb
import pytest
from project import Project, execute, warehouse_copy

pytestmark = pytest.mark.e2e

TAXONOMY = "icml2026"


@pytest.fixture(scope="module")
def clean(synthetic_built: Project, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """The session's built synthetic venue (conftest.py), with a folder of this module's own for
    the gate's Data Docs; the gate opens the warehouse read-only."""
    return synthetic_built.in_scratch(tmp_path_factory.mktemp("quality"))


def broken_copy(clean: Project, tmp_path: Path, statement: str) -> Project:
    """A copy of the clean warehouse with `statement` applied to it."""
    db = tmp_path / "warehouse.duckdb"
    shutil.copy(clean.db, db)
    execute(db, statement)
    return Project(db, tmp_path)


def gate(project: Project, stage: str, *extra: str) -> subprocess.CompletedProcess[str]:
    """Run the gate as `make validate` does, keeping its Data Docs in the test's folder: in this
    process (great-expectations is imported once per pytest worker, not once per gate)."""
    return project.cli("validate", "--stage", stage, "--taxonomy", TAXONOMY, "--top-n", "30",
        "--profile", "iclr2026", "--docs-dir", str(project.scratch / "docs"), *extra,
        check=False,
    )


def test_clean_warehouse_passes_and_writes_data_docs(clean: Project) -> None:
    result = gate(clean, "all")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "FAILED" not in result.stdout
    assert (clean.scratch / "docs" / "raw" / "index.html").exists()
    assert (clean.scratch / "docs" / "marts" / "index.html").exists()


def first(project: Project, sql: str) -> str:
    """The one value `sql` selects from the project's warehouse (the row a test breaks)."""
    con = duckdb.connect(str(project.db), read_only=True)
    try:
        return str(con.execute(sql).fetchall()[0][0])
    finally:
        con.close()


@pytest.mark.parametrize(("stage", "statement", "culprit", "named", "shown"), [
    pytest.param(
        "raw", "update raw.reviews set rating = 99 where review_id = '{id}'",
        "select min(review_id) from raw.reviews", "raw.reviews.rating", "{id}", id="rating-of-99"),
    pytest.param(
        "raw", "insert into raw.reviews select * from raw.reviews where review_id = '{id}'",
        "select min(review_id) from raw.reviews", "raw.reviews.review_id", "{id}",
        id="duplicate-review"),
    pytest.param(
        "raw", "delete from raw.reviews where paper_id = '{id}'",
        "select min(paper_id) from raw.papers where is_accepted", "raw.papers.review_count", "{id}",
        id="accepted-paper-without-reviews"),
    pytest.param(
        "marts",
        # marts.paper_rankings is a view of intermediate.int_papers_ranked
        "update intermediate.int_papers_ranked set local_top_overall = 'nan'::double "
        "where paper_id = '{id}'",
        "select min(paper_id) from marts.paper_rankings", "marts.paper_rankings.scores_not_finite",
        "local_top_overall=nan", id="nan-composite"),
])
def test_broken_warehouse_fails_naming_table_and_column(
    clean: Project, tmp_path: Path, stage: str, statement: str, culprit: str, named: str,
    shown: str,
) -> None:
    row_id = first(clean, culprit)
    result = gate(broken_copy(clean, tmp_path, statement.format(id=row_id)), stage)
    assert result.returncode == 1, result.stdout + result.stderr
    failures = [line for line in result.stdout.splitlines() if line.startswith("FAILED ")]
    assert len(failures) == 1 and named in failures[0], result.stdout
    assert row_id in result.stdout  # the offending row is printed
    assert shown.format(id=row_id) in result.stdout  # with what is wrong in it


def test_a_null_or_a_repeated_key_fails_the_models_keys_test_naming_each(
    clean: Project, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """A model's required columns and keys are one dbt test (tests/generic/keys_and_nulls.sql,
    one node instead of one a column and one a key): nulls in two of paper_rankings' columns
    and a repeated (venue, category, category_rank) fail it, and the failure names each column
    with its count of null rows and the key with how many of its values repeat and the first
    of them, not merely a number of results."""
    from paperrank.pipeline.dbt import DbtFailed

    # marts.paper_rankings is a view of intermediate.int_papers_ranked
    broken = broken_copy(clean, tmp_path, "update intermediate.int_papers_ranked "
                         "set category_slug = null, local_top_overall = case when category_rank "
                         "<= 2 then null else local_top_overall end, category_rank = case when "
                         "category_rank = 2 then 1 else category_rank end where category_rank <= 3")
    categories = int(first(broken, "select count(distinct category) from marts.paper_rankings"))
    repeated = first(broken, "select min(venue || ', ' || category || ', 1') from marts.paper_rankings")
    with pytest.raises(DbtFailed):
        broken.dbt_in_process("test", "--select", "keys_and_nulls_paper_rankings",
                              dbt_vars=f"{{taxonomy: {TAXONOMY}}}")
    printed = capsys.readouterr().out
    assert "FAILED  dbt test keys_and_nulls_paper_rankings" in printed, printed
    assert f"rule='null', rule_columns='category_slug', offending={3 * categories}" in printed, printed
    assert f"rule='null', rule_columns='local_top_overall', offending={2 * categories}" in printed, printed
    assert (f"rule='duplicate', rule_columns='venue, category, category_rank', "
            f"offending={categories}, example={repeated!r}") in printed, printed
    assert "rule_columns='paper_id'" not in printed


def test_small_category_warns_without_failing(clean: Project) -> None:
    result = gate(clean, "marts", "--top-n", "10000")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "WARNING  marts.paper_rankings.papers" in result.stdout


def test_gate_releases_the_warehouse_for_dbt(clean: Project, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """After the gate returns, the same process can open the file for writing (as dbt will)."""
    from paperrank.quality import validate  # great-expectations: seconds to import, so not at collection

    clean = warehouse_copy(clean, tmp_path / "copy")  # opened for writing below
    monkeypatch.setenv("PAPERRANK_DB", str(clean.db))
    checks = validate.Checks(stage="marts", taxonomy=TAXONOMY, top_n=30, profile=None,
                             docs_dir=tmp_path / "docs", engine="duckdb")
    assert validate.check(checks)
    duckdb.connect(str(clean.db)).close()


class _Links(HTMLParser):
    """Every src/href value and tag name of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.urls += [value or "" for name, value in attrs if name in ("src", "href")]


def test_offline_summary_page_names_the_warehouse_and_escapes_data(clean: Project,
                                                                   tmp_path: Path) -> None:
    paper = first(clean, "select min(paper_id) from raw.papers")
    hostile = "<script>alert(1)</script>"
    broken = broken_copy(clean, tmp_path, f"update raw.papers set primary_area = '{hostile}', "
                         f"title = '{hostile}' where paper_id = '{paper}'")
    result = gate(broken, "raw")
    assert result.returncode == 1
    page = broken.scratch / "docs" / "raw" / "summary.html"
    assert f"Report (reads offline): {page}" in result.stdout
    text = page.read_text(encoding="utf-8")
    links = _Links()
    links.feed(text)
    assert links.urls and not [u for u in links.urls if "//" in u or ":" in u], links.urls
    assert "script" not in links.tags and "link" not in links.tags
    assert str(broken.db.resolve()) in text
    assert paper in text and html.escape(hostile) in text and hostile not in text
    assert "FAILED" in text and "primary_area" in text
    # the Data Docs beside it are the ones that need a network
    assert "cdn" in (page.parent / "index.html").read_text(encoding="utf-8").lower()


def test_every_kind_of_non_finite_score_is_named_with_its_value() -> None:
    """The marts' one finite-scores check sees a null, a NaN and both infinities in any score
    column, and names each column with its value; a row of finite scores passes."""
    import pandas as pd

    from paperrank.quality.suites import MART_SCORE_COLUMNS, scores_not_finite

    rows = pd.DataFrame([{column: 0.5 for column in MART_SCORE_COLUMNS} for _ in range(5)])
    first, last = MART_SCORE_COLUMNS[0], MART_SCORE_COLUMNS[-1]
    rows.loc[1, first] = None
    rows.loc[2, last] = float("nan")
    rows.loc[3, first] = float("inf")
    rows.loc[4, [first, last]] = [float("-inf"), float("inf")]
    assert scores_not_finite(rows).tolist() == [
        None, f"{first}=nan", f"{last}=nan", f"{first}=inf", f"{first}=-inf, {last}=inf"]
