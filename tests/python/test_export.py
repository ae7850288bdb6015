"""The CSV export: one file per ranked category of the published build, folders created, one
venue at a time, no category name can write outside the folder it is given, and no cell a
spreadsheet would run as a formula."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import duckdb
import pytest
from project import Project, copy_project

# cells a spreadsheet would run as formulas (OWASP CSV injection), and one it would not
HOSTILE_TITLES = ['=HYPERLINK("http://evil.example","click")', "+1+2", "-2+3", "@SUM(A1:A9)",
                  "\tTabbed", "\rReturned", "＝SUM(1)", "A plain title, with = inside"]


@pytest.fixture(scope="module")
def two_venues(tmp_path_factory: pytest.TempPathFactory) -> Project:
    scratch = tmp_path_factory.mktemp("export")
    project = Project(scratch / "w.duckdb", scratch)
    for venue, seed in (("SYNTH 2026", 1), ("SYNTH 2027", 2)):
        name = venue.replace(" ", "_")
        out, truth = scratch / f"{name}.parquet", scratch / f"{name}_truth.parquet"
        project.paperrank("ingest", "synthetic", "--papers", "600", "--seed", str(seed),
                       "--venue", venue, "--out", str(out), "--labels-out", str(truth))
        project.paperrank("ingest", "file", str(out), "--venue", venue, "--profile", "iclr2026")
        project.paperrank("classify", "import", str(truth), "--taxonomy", "icml2026")
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
    project.dbt("build", "--vars", "{top_n: 5}")
    project.paperrank("publish", "--top-n", "5")
    return project


def export(project: Project, args: str, check: bool = True):
    return project.dbt("run-operation", "export_category_csvs", "--vars", "{top_n: 5}",
                       "--args", args, check=check)


def test_several_venues_need_a_venue(two_venues: Project) -> None:
    folder = two_venues.scratch / "never"
    result = export(two_venues, f"{{out_dir: '{folder}'}}", check=False)
    assert result.returncode != 0
    assert "holds 2 venues (SYNTH 2026, SYNTH 2027)" in result.stdout
    assert not folder.exists()


def test_one_csv_per_ranked_category_in_a_new_nested_folder(two_venues: Project) -> None:
    folder = two_venues.scratch / "deep" / "er" / "exports"
    export(two_venues, f"{{out_dir: '{folder}', venue: 'SYNTH 2027'}}")
    files = sorted(p.name for p in folder.glob("*.csv"))
    assert files == ["agentic-ai.csv", "ai-systems.csv", "healthcare-life-sciences.csv",
                     "physical-ai.csv", "sustainable-ai.csv"]
    for name in files:
        with (folder / name).open(newline="", encoding="utf-8") as handle:
            table = list(csv.DictReader(handle))
        assert {r["venue"] for r in table} == {"SYNTH 2027"}
        assert [int(r["category_rank"]) for r in table] == list(range(1, len(table) + 1))
        assert [r["is_top_n"] for r in table[:6]] == ["TRUE"] * 5 + ["FALSE"]


def test_formula_cells_are_neutralised_and_types_are_spreadsheet_friendly(two_venues: Project) -> None:
    folder = two_venues.scratch / "formulas"
    export(two_venues, f"{{out_dir: '{folder}', venue: 'SYNTH 2027'}}")
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


def test_excel_option_writes_a_byte_order_mark_and_the_manifest_tells(two_venues: Project) -> None:
    folder = two_venues.scratch / "excel"
    export(two_venues, f"{{out_dir: '{folder}', venue: 'SYNTH 2027', bom: true}}")
    data = (folder / "agentic-ai.csv").read_bytes()
    assert data.startswith(b"\xef\xbb\xbfcategory_rank,")
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["encoding"] == "utf-8-sig"
    assert manifest["columns"][:3] == ["category_rank", "paper_id", "title"]
    assert {"presentation_mean", "z_presentation_mean"} <= set(manifest["columns"])  # from the macro


def test_a_slug_that_escapes_the_folder_is_refused(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project")
    taxonomies = root / "seeds" / "taxonomies.csv"
    taxonomies.write_text(taxonomies.read_text(encoding="utf-8").replace(
        ",agentic-ai,", ",../../escaped,"), encoding="utf-8")
    project = Project(tmp_path / "w.duckdb", tmp_path, root=root)
    out, truth = tmp_path / "v.parquet", tmp_path / "t.parquet"
    project.paperrank("ingest", "synthetic", "--papers", "300", "--out", str(out),
                   "--labels-out", str(truth))
    project.paperrank("ingest", "file", str(out), "--venue", "SYNTH 2026", "--profile", "iclr2026")
    project.paperrank("classify", "import", str(truth), "--taxonomy", "icml2026")

    build = project.dbt("build", check=False)
    assert build.returncode != 0 and "matches_pattern_taxonomies_slug" in build.stdout
    project.dbt("run")
    project.paperrank("publish")  # the audit does not re-run dbt's tests
    folder = tmp_path / "out" / "exports"
    result = project.dbt("run-operation", "export_category_csvs",
                         "--args", f"{{out_dir: '{folder}'}}", check=False)
    assert result.returncode != 0
    assert "which is not a safe file name" in result.stdout
    assert not list(tmp_path.rglob("escaped*"))
