"""The CSV export: one file per ranked category of the published build, folders created, one
venue at a time, no category name can write outside the folder it is given, and no cell a
spreadsheet would run as a formula.

The export is one function (paperrank.publish.category_csvs) behind three doors: the pipeline
and `paperrank export` call it directly, ops' `dbt run-operation export_category_csvs` through
a macro and the dbt-duckdb plugin. Two tests go through ops' door (a missing venue, the byte
order mark: the macro's arguments), the others through `paperrank export`, in-process. One
published build of two venues serves them all (`two_venues`, a library entry).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import duckdb
import library
import pytest
from conftest import load_synthetic, replicate_options
from project import InProcessDbt, Project, copy_project, few_replicates, warehouse_copy

from paperrank.publish import delivery

pytestmark = pytest.mark.e2e

# cells a spreadsheet would run as formulas (OWASP CSV injection), and one it would not
HOSTILE_TITLES = ['=HYPERLINK("http://evil.example","click")', "+1+2", "-2+3", "@SUM(A1:A9)",
                  "\tTabbed", "\rReturned", "＝SUM(1)", "A plain title, with = inside"]


@pytest.fixture(scope="session")
def two_venues(small_loaded: Project, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """The library's small venue (SYNTH 2026) and a second one (SYNTH 2027, 400 papers, seed 2:
    at least 8 ranked in each category, so every CSV has a paper past the top 5), hostile titles
    in SYNTH 2027's Agentic AI, built with top_n 5 and few replicates and published, in-process,
    once per session. Read-only for the tests."""

    def build(folder: Path) -> None:
        project = warehouse_copy(small_loaded, folder)
        load_synthetic(project, 400, venue="SYNTH 2027", seed=2)
        con = duckdb.connect(str(project.db))
        try:
            ids = [r[0] for r in con.execute("""
                select p.paper_id from raw.papers as p
                inner join raw.paper_labels as l on l.paper_id = p.paper_id
                where p.venue = 'SYNTH 2027' and l.category = 'Agentic AI' and p.is_accepted
                  and lower(p.primary_area) <> 'datasets and benchmarks'
                  and p.paper_id in (select paper_id from raw.reviews)
                order by p.paper_id limit ?""", [len(HOSTILE_TITLES)]).fetchall()]
            for paper_id, title in zip(ids, HOSTILE_TITLES, strict=True):
                con.execute("update raw.papers set title = ? where paper_id = ?", [title, paper_id])
        finally:
            con.close()
        project.cli("build", "--top-n", "5", *replicate_options())
        project.cli("publish", "--top-n", "5")

    folder = library.built(tmp_path_factory, "export_two_venues", build)
    return Project(folder / "warehouse.duckdb", folder)


@pytest.fixture
def ops(two_venues: Project, tmp_path: Path) -> InProcessDbt:
    """Ops' door: dbt in this process (dbt's target and logs in the test's folder), as the
    macro's own docs run it: `--target published` opens no warehouse file, the export attaches
    the published one read-only."""
    project = two_venues.in_scratch(tmp_path / "dbt")
    project.published = two_venues.published
    return InProcessDbt(project)


def export(dbt: InProcessDbt, args: str, check: bool = True):
    return dbt("run-operation", "export_category_csvs", "--target", "published", "--vars", "{top_n: 5}",
               "--args", args, check=check)


def paperrank_export(project: Project, folder: Path, *options: str, check: bool = True):
    """`paperrank export` in this process."""
    return project.cli("export", "--export-dir", str(folder), *options, check=check)


def test_several_venues_need_a_venue(ops: InProcessDbt, tmp_path: Path) -> None:
    folder = tmp_path / "never"
    result = export(ops, f"{{out_dir: '{folder}'}}", check=False)
    assert result.returncode != 0
    assert "holds 2 venues (SYNTH 2026, SYNTH 2027)" in result.stdout
    assert not folder.exists()


def test_one_csv_per_ranked_category_in_a_new_nested_folder(two_venues: Project, tmp_path: Path) -> None:
    folder = tmp_path / "deep" / "er" / "exports"
    paperrank_export(two_venues, folder, "--venue", "SYNTH 2027")
    files = sorted(p.name for p in folder.glob("*.csv"))
    assert files == ["agentic-ai.csv", "ai-systems.csv", "healthcare-life-sciences.csv",
                     "physical-ai.csv", "sustainable-ai.csv"]
    for name in files:
        with (folder / name).open(newline="", encoding="utf-8") as handle:
            table = list(csv.DictReader(handle))
        assert {r["venue"] for r in table} == {"SYNTH 2027"}
        assert [int(r["category_rank"]) for r in table] == list(range(1, len(table) + 1))
        assert [r["is_top_n"] for r in table[:6]] == ["TRUE"] * 5 + ["FALSE"]


def test_formula_cells_are_neutralised_and_types_are_spreadsheet_friendly(two_venues: Project,
                                                                           tmp_path: Path) -> None:
    folder = tmp_path / "formulas"
    paperrank_export(two_venues, folder, "--venue", "SYNTH 2027")
    with (folder / "agentic-ai.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    titles = {r["title"] for r in rows}
    for title in HOSTILE_TITLES[:-1]:
        assert "'" + title in titles and title not in titles, title
    assert HOSTILE_TITLES[-1] in titles
    for row in rows:  # no text cell starts a formula; numbers and booleans stay plain
        for name in ("paper_id", "title", "category", "venue", "primary_area", "status",
                     "label_model", "forum_url", "pdf_url"):
            assert row[name][:1] not in ("=", "+", "-", "@", "\t", "\r", "＝"), (name, row[name])
        assert row["is_top_n"] in ("TRUE", "FALSE")
        float(row["z_rating_mean"]), int(row["category_rank"])


def test_excel_option_writes_a_byte_order_mark_and_the_manifest_tells(ops: InProcessDbt,
                                                                        tmp_path: Path) -> None:
    folder = tmp_path / "excel"
    export(ops, f"{{out_dir: '{folder}', venue: 'SYNTH 2027', bom: true}}")
    data = (folder / "agentic-ai.csv").read_bytes()
    assert data.startswith(b"\xef\xbb\xbfcategory_rank,")
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["encoding"] == "utf-8-sig"
    assert manifest["columns"][:3] == ["category_rank", "paper_id", "title"]
    assert {"presentation_mean", "z_presentation_mean"} <= set(manifest["columns"])  # from the macro


def test_a_slug_that_escapes_the_folder_is_refused(small_loaded: Project, tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project")
    taxonomies = root / "seeds" / "taxonomies.csv"
    taxonomies.write_text(taxonomies.read_text(encoding="utf-8").replace(
        ",agentic-ai,", ",../../escaped,"), encoding="utf-8")
    project = warehouse_copy(small_loaded, tmp_path, root=root)
    dbt = InProcessDbt(project)

    # the seed's own test refuses the slug
    build = dbt("build", "--select", "taxonomies", check=False)
    assert build.returncode != 0 and "matches_pattern_taxonomies_slug" in build.stdout
    # built and published anyway (the publish does not re-run dbt's tests): the export refuses
    dbt("seed")
    dbt("run", "--select", "+paper_rankings +build_settings +build_marts", "--vars", few_replicates())
    with project.environment():
        delivery.deliver(project.db, published=project.published)
    folder = tmp_path / "out" / "exports"
    result = paperrank_export(project, folder, check=False)
    assert result.returncode == 2
    assert "which is not a safe file name" in result.stderr
    assert not list(tmp_path.rglob("escaped*"))
