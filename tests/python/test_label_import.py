"""`paperrank classify import`: labels from CSV, parquet or JSONL; a label outside the
taxonomy (or for an unknown paper) is rejected with its reason, never loaded."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from project import Project
from test_paperlists import paper, rows, write_json


@pytest.fixture()
def project(tmp_path: Path) -> Project:
    project = Project(tmp_path / "w.duckdb", tmp_path)
    papers = write_json(tmp_path / "papers.json", [paper(f"P{i}") for i in range(1, 5)])
    project.cli("ingest", "file", str(papers), "--venue", "ICLR 2026")
    return project


def test_csv_labels_with_outside_category_and_unknown_paper(project: Project,
                                                            tmp_path: Path) -> None:
    path = tmp_path / "labels.csv"
    path.write_text(
        "paper_id,category,confidence,rationale\n"
        "P1,Robotics,high,robots\n"
        "P2,robotics,medium,case and spacing are forgiven\n"
        "P3,Quantum Gardening,high,not a category\n"
        "P9,Robotics,high,no such paper\n"
        "P1,SWE Agents,low,second label for P1 in one file\n",
        encoding="utf-8",
    )
    result = project.cli("classify", "import", str(path), "--taxonomy", "iclr2026")
    assert "records rejected: 3" in result.stdout
    assert rows(project.db, "select paper_id, category, confidence, model from raw.paper_labels "
                            "order by 1") == [
        ("P1", "Robotics", "high", "import:labels.csv"),
        ("P2", "Robotics", "medium", "import:labels.csv"),
    ]
    reasons = sorted(r[0] for r in rows(project.db, "select reason from raw.rejected_records"))
    assert reasons[0].startswith("duplicate label: label iclr2026/P1")
    assert reasons[1].startswith("unknown category: label iclr2026/P3 has 'Quantum Gardening'")
    assert reasons[2].startswith("unknown paper: label iclr2026/P9")


def test_parquet_and_jsonl_with_peer_column_names(project: Project, tmp_path: Path) -> None:
    parquet = tmp_path / "peer.parquet"
    pd.DataFrame({
        "openreview_id": ["P1", "P2"],
        "llm_category": ["AI for Life Sciences", "Other"],
        "llm_confidence": ["high", "low"],
        "llm_reasoning": ["proteins", "theory"],
    }).to_parquet(parquet)
    jsonl = tmp_path / "more.jsonl"
    jsonl.write_text("\n".join(json.dumps(r) for r in [
        {"id": "P3", "label": "Infrastructure"},
        {"id": "P4", "label": "UNCLASSIFIED"},
    ]) + "\n{broken\n", encoding="utf-8")
    project.cli("classify", "import", str(parquet), "--taxonomy", "iclr2026",
                   "--model", "peer-llm")
    result = project.cli("classify", "import", str(jsonl), "--taxonomy", "iclr2026")
    assert "invalid json" in result.stdout
    assert rows(project.db, "select paper_id, category, model from raw.paper_labels "
                            "order by 1") == [
        ("P1", "AI for Life Sciences", "peer-llm"),
        ("P2", "Other", "peer-llm"),
        ("P3", "Infrastructure", "import:more.jsonl"),
        ("P4", "UNCLASSIFIED", "import:more.jsonl"),
    ]
    again = project.cli("classify", "import", str(parquet), "--taxonomy", "iclr2026",
                           "--model", "peer-llm")
    assert "labels loaded: 2 (0 new)" in again.stdout


def test_unknown_taxonomy_is_a_clear_error(project: Project, tmp_path: Path) -> None:
    path = tmp_path / "labels.csv"
    path.write_text("paper_id,category\nP1,Robotics\n", encoding="utf-8")
    result = project.cli("classify", "import", str(path), "--taxonomy", "nope", check=False)
    assert result.returncode == 2
    assert "unknown taxonomy 'nope'" in result.stderr
    assert "known: iclr2026, icml2026" in result.stderr
