"""Holes in the loaders and the classifier, each reproduced, each closed.

Run as an operator runs them (`paperrank ingest ...`, `paperrank classify ...`, in this process
through the command's own entry point: exit code, stdout and stderr as a shell sees them) against
a real DuckDB file: the same status means the same thing on both loaders; a file without a
signal its review form has, or whose signal is all empty, does not load; a file in an unknown
format, or one where nothing loads, exits non-zero; hostile text (control characters, lone
surrogates, huge fields, script links) is cleaned or rejected record by record; a warehouse
held by another process gives one line naming it.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from notes_testkit import note, review, write_jsonl
from project import Project, rows

from paperrank.ingest.status import is_accepted

VENUE = "ICLR 2026"


def paper(paper_id: str, **fields: object) -> dict[str, object]:
    record: dict[str, object] = {
        "openreview_id": paper_id, "title": f"Title {paper_id}", "abstract": "An abstract.",
        "primary_area": "optimization", "status": "Poster", "keywords": ["a"],
        "rating": [6, 8], "confidence": [3, 4], "soundness": [3, 3], "contribution": [2, 3],
        "presentation": [3, 4],
    }
    record.update(fields)
    return {k: v for k, v in record.items() if v is not ...}


def write_json(path: Path, records: list[object]) -> Path:
    path.write_text(json.dumps(records), encoding="utf-8")
    return path


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path / "w.duckdb", tmp_path)


def ingest(project: Project, kind: str, path: Path, *extra: str):
    return project.cli("ingest", kind, str(path), "--venue", VENUE, *extra, check=False)


# -- accepted or not: one rule, both loaders ----------------------------------------------------
STATUSES = ["Poster", "Oral", "ICLR 2026 ConditionalOral", "Accept (Spotlight)", "Rejected",
            "Withdrawn Submission", "Desk Rejected", "Pending", "ICLR 2026 Conference Submission",
            "Invited talk", None]


def test_both_loaders_apply_the_same_status_rule(project: Project, tmp_path: Path) -> None:
    ids = {status: f"S{i}" for i, status in enumerate(STATUSES)}
    records = [paper(pid, status=status if status is not None else ...)
               for status, pid in ids.items()]
    listed = ingest(project, "file", write_json(tmp_path / "p.json", records), "--profile",
                    "iclr2026")
    assert listed.returncode == 0, listed.stderr
    from_file = dict(rows(project.db, "select paper_id, is_accepted from raw.papers"))

    notes = []
    for status, pid in ids.items():
        item = note(pid, replies=[review(f"{pid}-R1", pid)])
        del item["content"]["venueid"]
        if status is None:
            del item["content"]["venue"]
        else:
            item["content"]["venue"] = status
        notes.append(item)
    other = Project(tmp_path / "notes.duckdb", tmp_path)
    from_notes_run = ingest(other, "notes", write_jsonl(tmp_path / "n.jsonl", notes))
    assert from_notes_run.returncode == 0, from_notes_run.stderr
    from_notes = dict(rows(other.db, "select paper_id, is_accepted from raw.papers"))

    expected = {pid: is_accepted(status) for status, pid in ids.items()}
    assert from_file == expected == from_notes
    assert [s for s in STATUSES if expected[ids[s]]] == [
        "Poster", "Oral", "ICLR 2026 ConditionalOral", "Accept (Spotlight)", None]
    # taking a status-less paper as accepted is said, with the count, by both loaders
    for result in (listed, from_notes_run):
        assert "1 papers have no status" in result.stderr and "taken as accepted" in result.stderr


# -- signals the venue's form has must be there --------------------------------------------------
@pytest.mark.parametrize("name, change", [
    ("no rating column", {"rating": ...}),
    ("all ratings empty", {"rating": [None, None]}),
])
def test_a_form_signal_missing_from_the_whole_file_fails_the_load(
        project: Project, tmp_path: Path, name: str, change: dict) -> None:
    path = write_json(tmp_path / "p.json", [paper(f"P{i}", **change) for i in range(3)])
    result = ingest(project, "file", path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "missing signal" in result.stderr and "rating" in result.stderr
    assert "Traceback" not in result.stderr
    assert not project.db.exists()  # it failed before writing anything


def test_a_review_without_the_form_field_fails_a_notes_load(project: Project,
                                                            tmp_path: Path) -> None:
    replies = [review("P1-R1", "P1")]
    del replies[0]["content"]["rating"]
    result = ingest(project, "notes", write_jsonl(tmp_path / "n.jsonl", [note("P1", replies)]))
    assert result.returncode == 2 and "missing signal" in result.stderr, result.stderr


def test_one_record_without_a_signal_list_is_rejected(project: Project, tmp_path: Path) -> None:
    path = write_json(tmp_path / "p.json", [paper("P1"), paper("P2", rating=...)])
    result = ingest(project, "file", path)
    assert result.returncode == 0, result.stderr
    assert rows(project.db, "select paper_id from raw.papers") == [("P1",)]
    assert rows(project.db, "select reason_kind from raw.rejected_records") == [("missing field",)]


def test_nan_scores_are_rejected_not_loaded(project: Project, tmp_path: Path) -> None:
    table = pa.Table.from_pylist([paper("P1"), paper("P2", rating=[math.nan, 8.0])])
    pq.write_table(table, tmp_path / "p.parquet")
    result = ingest(project, "file", tmp_path / "p.parquet")
    assert result.returncode == 0, result.stderr
    assert rows(project.db, "select count(*) from raw.reviews where isnan(rating)") == [(0,)]
    assert rows(project.db, "select record_key, reason_kind from raw.rejected_records") == [
        ("review P2#r1", "unparsable score")]


# -- formats and empty loads ---------------------------------------------------------------------
def test_csv_or_unknown_format_is_a_clear_error(project: Project, tmp_path: Path) -> None:
    for name in ("papers.csv", "papers.xlsx", "papers"):
        path = tmp_path / name
        path.write_text("openreview_id,title\nP1,A title\n")
        result = ingest(project, "file", path)
        assert result.returncode == 2, result.stdout
        assert "unknown format" in result.stderr and "Traceback" not in result.stderr


def test_nothing_loaded_or_no_rows_exits_non_zero(project: Project, tmp_path: Path) -> None:
    path = tmp_path / "csv_in_disguise.jsonl"
    path.write_text("openreview_id,title\nP1,A title\nP2,Another\n")
    result = ingest(project, "file", path)
    assert result.returncode == 2
    assert "nothing loaded: all 3 records" in result.stderr
    assert rows(project.db, "select count(*) from raw.rejected_records") == [(3,)]
    pq.write_table(pa.Table.from_pylist([paper("P1")]).slice(0, 0), tmp_path / "empty.parquet")
    result = ingest(project, "file", tmp_path / "empty.parquet")
    assert result.returncode == 2 and "holds no records (0 rows)" in result.stderr


# -- hostile text --------------------------------------------------------------------------------
def test_hostile_text_is_cleaned_or_rejected_record_by_record(project: Project,
                                                             tmp_path: Path) -> None:
    records = [
        paper("P1", title="Clean\x00 title\x07 with\x1b[31m escapes",
              authors="Ada Lovelace; Alan Turing"),
        paper("P2", site="javascript:alert(1)"),
        paper("P3", abstract="y" * 60_000),
        paper("P4", pdf_link="https://openreview.net/pdf?id=P4 onerror=x"),
        paper("P5", authors=["Grace Hopper", "Edsger Dijkstra"]),
    ]
    text = json.dumps(records).replace("Title P6", "x")
    text = text[:-1] + ', {"openreview_id": "P6", "title": "Lone \\ud800 surrogate", ' \
        '"rating": [6], "confidence": [3], "soundness": [3], "contribution": [3], ' \
        '"presentation": [3]}]'
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    result = ingest(project, "file", path)
    assert result.returncode == 0, result.stderr
    papers = dict(rows(project.db, "select paper_id, title from raw.papers"))
    assert papers == {"P1": "Clean title with[31m escapes", "P5": "Title P5"}
    assert dict(rows(project.db, "select paper_id, authors from raw.papers")) == {
        "P1": "Ada Lovelace; Alan Turing", "P5": "Grace Hopper; Edsger Dijkstra"}
    kinds = dict(rows(project.db, "select record_key, reason_kind from raw.rejected_records"))
    assert kinds == {"paper P2": "invalid url", "paper P3": "oversized field",
                     "paper P4": "invalid url", "paper P6": "invalid text"}


def test_huge_rationale_in_a_label_file_rejects_its_row_only(project: Project,
                                                             tmp_path: Path) -> None:
    ingest(project, "file", write_json(tmp_path / "p.json", [paper("P1"), paper("P2")]))
    labels = tmp_path / "labels.csv"
    labels.write_text("paper_id,category,rationale\nP1,AI Systems,short\n"
                      f"P2,AI Systems,{'z' * 10_000_000}\n", encoding="utf-8")
    result = project.cli("classify", "import", str(labels), "--taxonomy", "icml2026",
                            check=False)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert rows(project.db, "select paper_id from raw.paper_labels") == [("P1",)]
    reason = rows(project.db, "select reason from raw.rejected_records")[0][0]
    assert reason.startswith("oversized field: label icml2026/P2 field rationale: 10000000")


# -- a warehouse held by another process ---------------------------------------------------------
def test_a_locked_warehouse_gives_one_line_naming_the_process(project: Project,
                                                              tmp_path: Path) -> None:
    path = write_json(tmp_path / "p.json", [paper("P1")])
    ingest(project, "file", path)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); "
         "print('held', flush=True); time.sleep(60)", str(project.db)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        for command in (("ingest", "file", str(path), "--venue", VENUE),
                        ("classify", "run", "--taxonomy", "icml2026", "--backend", "keywords"),
                        ("classify", "eval", "--taxonomy", "icml2026", "--against", "x")):
            result = project.cli(*command, check=False)
            assert result.returncode == 2, result.stderr
            lines = result.stderr.strip().splitlines()
            assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
            assert f"is in use by process {holder.pid}" in lines[0]
            assert "wait for it to finish or stop it" in lines[0]
    finally:
        holder.kill()
        holder.wait()


# -- authors reach the staging model ---------------------------------------------------------------
@pytest.mark.e2e  # runs dbt
def test_authors_are_loaded_from_notes_and_exposed_in_staging(project: Project,
                                                            tmp_path: Path) -> None:
    item = note("P1", authors=["Ada Lovelace", "Alan; Turing"])
    assert ingest(project, "notes", write_jsonl(tmp_path / "n.jsonl", [item])).returncode == 0
    project.dbt("run", "-s", "stg_raw__papers")
    assert rows(project.db, "select authors from staging.stg_raw__papers") == [
        ("Ada Lovelace; Alan, Turing",)]


# -- the LLM key, before the run needs it --------------------------------------------------------
def test_classify_check_and_run_without_a_key(project: Project, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from fake_llm_server import FakeLLM

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("PAPERRANK_CLASSIFY_CONFIG", raising=False)
    ingest(project, "file", write_json(tmp_path / "p.json", [paper("P1")]))  # one to classify
    for command in (("check",), ("run", "--taxonomy", "icml2026")):
        result = project.cli("classify", *command, "--base-url", "https://llm.example.com/v1",
                                check=False)
        assert result.returncode == 2 and "OPENAI_API_KEY is not set" in result.stderr
        assert "--backend keywords" in result.stderr and "Traceback" not in result.stderr
    monkeypatch.setenv("OPENAI_API_KEY", "sk-check")
    with FakeLLM() as server:
        result = project.cli("classify", "check", "--base-url", server.base_url)
    assert "answers and accepts the key" in result.stdout and "is listed" in result.stdout
    closed = subprocess.run([sys.executable, "-c", "import socket; s = socket.socket(); "
                             "s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"],
                            capture_output=True, text=True).stdout.strip()
    result = project.cli("classify", "check", "--base-url", f"http://127.0.0.1:{closed}/v1",
                            check=False)
    assert result.returncode == 2 and "did not answer" in result.stderr, result.stderr
