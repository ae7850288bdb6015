"""`make demo` as a new user runs it: a short report, not the logs; no terminal escape codes
when the output is not a terminal; the query it prints works exactly as printed."""

from __future__ import annotations

import subprocess

import pytest
from project import REPO, Project

pytestmark = pytest.mark.e2e


def test_make_demo_prints_a_short_summary_and_a_query_that_works(tmp_path) -> None:
    project = Project(tmp_path / "unused.duckdb", tmp_path)
    demo_db, published = tmp_path / "demo.duckdb", tmp_path / "demo_published.duckdb"
    result = project.run("make", "--no-print-directory", "demo", "DEMO_PAPERS=400",
                         f"DEMO_DIR={tmp_path / 'demo'}", f"DEMO_DB={demo_db}",
                         f"DEMO_PUBLISHED_DB={published}")
    output = result.stdout + result.stderr
    lines = output.splitlines()
    assert len(lines) <= 45, output  # it used to print about 520 lines
    assert "\x1b[" not in output
    assert "SYNTHETIC" in output
    for category in ("Agentic AI", "AI Systems", "Physical AI", "Healthcare & Life Sciences",
                     "Sustainable AI"):
        assert any(line.strip().startswith(category) for line in lines), category
    assert "moved out by the primary-area override" in output  # why labelled != ranked
    assert "primary_area_override" in output and "category_not_ranked" in output
    assert f"published warehouse  {published}" in output
    assert f"CSVs                 {tmp_path / 'demo' / 'exports'}/" in output
    assert published.is_symlink() and (tmp_path / "demo" / "exports" / "manifest.json").exists()
    assert sorted(p.name for p in (tmp_path / "demo" / "logs").iterdir()) == [
        "1_synthetic.log", "2_load.log", "3_classify.log", "4_rank.log", "5_label_agreement.log"]
    # the query command, exactly as printed, from the repository (where a user runs make)
    query = lines[lines.index("Query the published warehouse:") + 1].strip()
    shown = subprocess.run(["bash", "-c", query], cwd=REPO, capture_output=True, text=True,
                           timeout=120, check=False)
    assert shown.returncode == 0, shown.stderr
    assert "category_rank" in shown.stdout and "Agentic AI" in shown.stdout


def test_make_help_lists_targets_and_every_setting_with_its_value(tmp_path) -> None:
    project = Project(tmp_path / "w.duckdb", tmp_path)
    result = project.run("make", "--no-print-directory", "help", "TOP_N=7", "WEIGHT_SET=mine",
                         "VENUE=ICLR 2026")
    for target in ("demo", "run", "rank", "build", "publish", "export", "rollback", "publications",
                   "docs", "validate", "test", "bench"):
        assert f" {target} " in result.stdout or f" {target}\n" in result.stdout, target
    for setting in ("TAXONOMY=icml2026", "TOP_N=7", "WEIGHT_SET=mine", "VENUE=ICLR 2026",
                    "LABEL_MODEL=", "PROFILE=", "EXTRAS=", "EXPORT_DIR=", "CSV_BOM=no",
                    f"PAPERRANK_DB={project.db}", f"PAPERRANK_PUBLISHED_DB={project.published}"):
        assert setting in result.stdout, setting
