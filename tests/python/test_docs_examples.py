"""Every SQL and Python example of README.md and docs/*.md runs as written.

The examples are read from the Markdown: each ```sql block (statement by statement), each
```python block (as a script) and each `.venv/bin/python -c "..."` line of a shell block (through
the shell, as a reader pastes it). They run in a folder laid out as the README leaves a checkout
after ranking two venues: warehouse/paperrank.duckdb (the working warehouse) and
warehouse/published.duckdb holding both venues published, `.venv` the project's. The build (two
small synthetic venues, every extra, few replicates) is made once per session
(`tests/python/library.py`) and copied per test.

A query of a mart that has a venue column must show the venue or filter by it: with two venues
published, a query that does neither adds their rows together (3,987 = 3,701 + 286 in one row).
A drifted example (a file or table that is not there, a column renamed) fails here.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import duckdb
import library
import pytest
from conftest import SYNTHETIC_TAXONOMY, load_synthetic
from project import REPO, Project, replicate_options, warehouse_copy

pytestmark = pytest.mark.e2e

PAGES = sorted([REPO / "README.md", *(REPO / "docs").glob("*.md")])
LANGUAGE_BLOCK = re.compile(r"^```(?P<language>[a-z]*)[^\n]*\n(?P<code>.*?)^```", re.MULTILINE | re.DOTALL)
PYTHON_C = re.compile(r"^\s*(\.venv/bin/python -c .*?)\s*(?:#[^\"']*)?$", re.MULTILINE)
MART = re.compile(r"\bmarts\.(\w+)")
SECOND_VENUE = "SYNTH 2027"


@dataclass(frozen=True)
class Example:
    page: str
    kind: str  # sql, python, python -c
    code: str

    def __str__(self) -> str:
        return f"{self.page}: {self.kind}: {self.code.strip().splitlines()[0][:70]}"


def examples() -> list[Example]:
    found = []
    for page in PAGES:
        name = str(page.relative_to(REPO))
        for block in LANGUAGE_BLOCK.finditer(page.read_text(encoding="utf-8")):
            language, code = block.group("language"), block.group("code")
            if language == "sql":
                found += [Example(name, "sql", statement.strip() + ";")
                          for statement in re.split(r";\s*$", code, flags=re.MULTILINE) if _sql(statement)]
            elif language == "python":
                found.append(Example(name, "python", code))
            elif language in ("sh", "bash", ""):
                found += [Example(name, "python -c", line) for line in PYTHON_C.findall(code)]
    return found


def _sql(statement: str) -> bool:
    return any(line.strip() and not line.strip().startswith("--") for line in statement.splitlines())


EXAMPLES = examples()


@pytest.fixture(scope="session")
def two_published(small_loaded: Project, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """The small venue and a second one, ranked with every extra and published together."""

    def build(folder: Path) -> None:
        project = warehouse_copy(small_loaded, folder)
        load_synthetic(project, 80, venue=SECOND_VENUE, seed=2)
        for venue in ("SYNTH 2026", SECOND_VENUE):  # one publication per venue, as operators do
            project.cli("rank", "--venue", venue, "--taxonomy", SYNTHETIC_TAXONOMY, "--profile",
                        "iclr2026", "--top-n", "5", *replicate_options(),
                        "--export-dir", str(folder / "exports" / venue.replace(" ", "_")),
                        "--report-dir", str(folder / "report" / venue.replace(" ", "_")))

    folder = library.built(tmp_path_factory, "docs_two_published", build)
    return Project(folder / "warehouse.duckdb", folder)


@pytest.fixture
def checkout(two_published: Project, tmp_path: Path) -> Path:
    """A folder laid out as the README's checkout: warehouse/{paperrank,published}.duckdb, .venv."""
    (tmp_path / "warehouse").mkdir()
    shutil.copy(two_published.db, tmp_path / "warehouse" / "paperrank.duckdb")
    shutil.copy(two_published.published, tmp_path / "warehouse" / "published.duckdb")  # the build it links to
    (tmp_path / ".venv").symlink_to(Path(sys.executable).parent.parent)
    return tmp_path


def environment(checkout: Path) -> dict[str, str]:
    return {**os.environ, "PAPERRANK_DB": str(checkout / "warehouse" / "paperrank.duckdb"),
            "PAPERRANK_PUBLISHED_DB": str(checkout / "warehouse" / "published.duckdb")}


def test_the_pages_hold_examples() -> None:
    """The patterns find what they look for (a check that cannot pass on an empty match)."""
    kinds = {example.kind for example in EXAMPLES}
    assert kinds == {"sql", "python", "python -c"}, kinds
    assert sum(example.kind == "sql" for example in EXAMPLES) >= 3


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.kind == "sql"], ids=str)
def test_a_sql_example_runs_and_shows_the_venue(example: Example, checkout: Path) -> None:
    con = duckdb.connect(str(checkout / "warehouse" / "published.duckdb"), read_only=True)
    try:
        result = con.execute(example.code)
        columns = [d[0] for d in result.description or []]
        rows = result.fetchall()
    finally:
        con.close()
    with_venue = _marts_with_venue(checkout, example.code)
    # a mart holds rows of both venues; the loaders' rejections may be none
    assert rows or not MART.search(example.code), f"{example}: no rows on a build of two venues"
    if with_venue:
        assert "venue" in columns or re.search(r"\bvenue\s*=", example.code), (
            f"{example}: reads {with_venue}, which hold every published venue, and neither shows "
            "nor filters the venue")
        if "venue" in columns:
            assert {row[columns.index("venue")] for row in rows} >= {"SYNTH 2026", SECOND_VENUE}


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.kind != "sql"], ids=str)
def test_a_python_example_runs(example: Example, checkout: Path) -> None:
    if example.kind == "python":
        command = [str(checkout / ".venv" / "bin" / "python"), "-c", example.code]
    else:
        command = ["sh", "-c", example.code]
    result = subprocess.run(command, cwd=checkout, env=environment(checkout), capture_output=True,
                            text=True, timeout=120, check=False)
    assert result.returncode == 0, f"{example}:\n{result.stderr[-2000:]}"
    assert result.stdout.strip(), f"{example}: printed nothing"
    for query in re.findall(r"\.sql\(['\"](.*?)['\"]\)", example.code):
        marts = _marts_with_venue(checkout, query)
        assert not marts or re.search(r"select \*|\bvenue\b", query), (
            f"{example}: reads {marts}, which hold every published venue, and neither shows nor "
            "filters the venue")


def _marts_with_venue(checkout: Path, query: str) -> list[str]:
    con = duckdb.connect(str(checkout / "warehouse" / "published.duckdb"), read_only=True)
    try:
        return [name for name in set(MART.findall(query)) if con.execute(
            "select count(*) from duckdb_columns() where schema_name = 'marts' and table_name = ? "
            "and column_name = 'venue'", [name]).fetchone() == (1,)]
    finally:
        con.close()


def test_a_drifted_example_fails(checkout: Path) -> None:
    """The check above is not blind: an example of a file or table that is not there fails."""
    drifted = Example("x.md", "python -c", ".venv/bin/python -c \"import duckdb; duckdb.connect("
                      "'warehouse/iclr2026_published.duckdb', read_only=True).sql('select 1').show()\"")
    with pytest.raises(AssertionError):
        test_a_python_example_runs(drifted, checkout)
    mixed = Example("x.md", "sql", "select exclusion_reason, count(*) from marts.excluded_papers "
                                   "group by exclusion_reason;")
    with pytest.raises(AssertionError, match="neither shows nor filters the venue"):
        test_a_sql_example_runs_and_shows_the_venue(mixed, checkout)


@pytest.mark.parametrize("authors", [True, False], ids=["with-authors", "no-authors"])
def test_the_search_label_names_what_the_data_holds(checkout: Path, authors: bool) -> None:
    """ICLR's papers have no authors: the page's search box does not promise to search them."""
    published = checkout / "warehouse" / "published.duckdb"
    con = duckdb.connect(str(published))
    try:  # the synthetic venue has neither authors nor keywords: give it keywords, and authors or none
        con.execute("update marts.paper_rankings set keywords = 'a; b', authors = ?",
                    ["Ada Lovelace" if authors else None])
    finally:
        con.close()
    out = checkout / "report"
    result = subprocess.run([str(checkout / ".venv" / "bin" / "paperrank"), "report", "--db", str(published),
                             "--venue", "SYNTH 2026", "--out-dir", str(out)], cwd=checkout,
                            env=environment(checkout), capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    [page] = out.glob("*.html")
    searched = "titles, authors, keywords, abstracts" if authors else "titles, keywords, abstracts"
    assert f'<label for="paper-search">Search {searched}</label>' in page.read_text(encoding="utf-8")
