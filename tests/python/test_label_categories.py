"""A labels file's category names match the taxonomy exactly (case and
surrounding white space aside); anything else is a rejected row with its reason.

An earlier rule kept only a-z and 0-9 before matching, so `AI/Systems` and `AI Systems` were
one category, `C++ Agents` became `C Agents`, any name in another script collided with any
other (`机器人` stored as `医疗`) and `???` was stored as a category, with 0 rejections.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from project import Project
from test_paperlists import paper, rows, write_json

from paperrank.ingest.labels import build_batch

CATEGORIES = ["AI Systems", "C Agents", "医疗", "Other"]
CASES = [
    ("AI Systems", "AI Systems"),
    ("  ai systems ", "AI Systems"),  # case and surrounding space are forgiven
    ("AI/Systems", None),
    ("AI-Systems", None),
    ("C++ Agents", None),
    ("c agents", "C Agents"),
    ("机器人", None),
    ("医疗", "医疗"),
    ("???", None),
    ("Oth er", None),
]


def test_only_exact_names_match(tmp_path: Path) -> None:
    path = tmp_path / "labels.csv"
    lines = [f"P{i},{name}" for i, (name, _) in enumerate(CASES)]
    path.write_text("paper_id,category\n" + "\n".join(lines) + "\n", encoding="utf-8")
    known = {f"P{i}" for i in range(len(CASES))}
    batch = build_batch(path, "custom", CATEGORIES, "m", datetime.now(UTC), known)
    stored = {label["paper_id"]: label["category"] for label in batch.labels}
    expected = {f"P{i}": canonical for i, (_, canonical) in enumerate(CASES) if canonical}
    assert stored == expected
    rejected = {r.record_key: r.reason for r in batch.rejected}
    for i, (name, canonical) in enumerate(CASES):
        if canonical is None:
            reason = rejected[f"label custom/P{i}"]
            assert reason.startswith(f"unknown category: label custom/P{i} has {name!r}"), reason
            assert "not one of the custom categories (AI Systems, C Agents, 医疗, Other)" in reason
    assert len(batch.rejected) == sum(1 for _, c in CASES if c is None)


@pytest.fixture()
def project(tmp_path: Path) -> Project:
    project = Project(tmp_path / "w.duckdb", tmp_path)
    papers = write_json(tmp_path / "papers.json", [paper(f"P{i}") for i in range(1, 6)])
    project.cli("ingest", "file", str(papers), "--venue", "ICLR 2026")
    return project


def test_import_rejects_near_names_and_says_so(project: Project, tmp_path: Path) -> None:
    path = tmp_path / "labels.csv"
    path.write_text("paper_id,category\nP1,SWE-Agents\nP2,Datasets and Benchmarks\nP3,???\n"
                    "P4,机器人\nP5, swe agents \n", encoding="utf-8")
    result = project.cli("classify", "import", str(path), "--taxonomy", "iclr2026")
    assert "records rejected: 4" in result.stdout
    assert rows(project.db, "select paper_id, category from raw.paper_labels") == [("P5", "SWE Agents")]
    reasons = sorted(r[0] for r in rows(project.db, "select reason from raw.rejected_records"))
    assert [r.split(" has ")[1].split(",")[0] for r in reasons] == [
        "'SWE-Agents'", "'Datasets and Benchmarks'", "'???'", "'机器人'"]
