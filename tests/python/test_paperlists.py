"""The paperlists loader: every record is loaded or kept aside with a reason, loads are
idempotent, and snapshots replace current rows only when newer."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from project import ICLR, Project, require_shared, rows

from paperrank.core.loads import write_batch
from paperrank.core.warehouse import connect
from paperrank.ingest.paperlists import read_paperlists
from paperrank.ingest.profiles import resolve_profile

PROFILE = resolve_profile("ICLR 2026")
T0 = datetime(2025, 11, 22, tzinfo=UTC)
T1 = datetime(2026, 1, 20, tzinfo=UTC)


def paper(paper_id: str, **fields: object) -> dict[str, object]:
    record: dict[str, object] = {
        "openreview_id": paper_id,
        "title": f"Title {paper_id}",
        "abstract": "An abstract.",
        "primary_area": "optimization",
        "status": "Poster",
        "keywords": ["a", "b"],
        "rating": [6, 8],
        "confidence": [3, 4],
        "soundness": [3, 3],
        "contribution": [2, 3],
        "presentation": [3, 4],
    }
    record.update(fields)
    return record


def write_json(path: Path, records: list[object]) -> Path:
    path.write_text(json.dumps(records), encoding="utf-8")
    return path


def load(db: Path, path: Path, snapshot_at: datetime = T0):
    con = connect(db)
    try:
        return write_batch(con, read_paperlists(path, "ICLR 2026", PROFILE, snapshot_at))
    finally:
        con.close()


def test_semicolon_joined_scores_and_text_scores(tmp_path: Path) -> None:
    path = write_json(tmp_path / "p.json", [
        paper("A", rating="6;8;4", confidence="3; 4; 5", soundness="3;3;2",
              contribution="2;3;2", presentation="3;4;2", keywords="x; y"),
        paper("B", rating=["8: accept, good paper", "6"], confidence=[3, "4"]),
    ])
    db = tmp_path / "w.duckdb"
    summary = load(db, path)
    assert summary.records_rejected == 0
    assert rows(db, "select paper_id, keywords from raw.papers order by 1") == [
        ("A", ["x", "y"]), ("B", ["a", "b"])]
    assert rows(db, "select review_id, rating, confidence from raw.reviews order by 1") == [
        ("A#r1", 6.0, 3.0), ("A#r2", 8.0, 4.0), ("A#r3", 4.0, 5.0),
        ("B#r1", 8.0, 3.0), ("B#r2", 6.0, 4.0)]


BAD_RECORDS = [
    ("missing id", {"title": "no id", "rating": [6]}),
    ("duplicate paper", paper("P1")),
    ("missing field", paper("P3", title="   ")),
    ("wrong type", paper("P4", title={"nested": "garbage"})),
    ("wrong type", paper("P8", keywords=[1, 2])),
    ("mismatched score lists", paper("P5", rating=[6, 8, 4])),
    ("out of scale", paper("P6", rating=[6, 99])),
    ("unparsable score", paper("P7", confidence=[3, "very sure"])),
    ("not an object", [1, 2, 3]),
    ("not an object", "just a string"),
]


def test_bad_records_are_kept_aside_with_reasons(tmp_path: Path) -> None:
    records = [paper("P1"), *(record for _, record in BAD_RECORDS), paper("P2")]
    path = write_json(tmp_path / "bad.json", records)
    db = tmp_path / "w.duckdb"
    summary = load(db, path)
    assert summary.records_read == len(records)
    assert summary.rejected_by_reason == {
        kind: sum(k == kind for k, _ in BAD_RECORDS) for kind, _ in BAD_RECORDS}
    # a bad review rejects the review, not the paper: P6 and P7 keep their good reviews
    loaded = {r[0] for r in rows(db, "select paper_id from raw.papers")}
    assert loaded == {"P1", "P2", "P6", "P7"}
    rejected_papers = rows(db, "select count(*) from raw.rejected_records "
                               "where record_key not like 'review %'")[0][0]
    assert summary.records_read == len(loaded) + rejected_papers
    assert rows(db, "select count(*) from raw.reviews where paper_id in ('P6', 'P7')") == [(2,)]
    reasons = dict(rows(db, "select record_key, reason from raw.rejected_records"))
    assert reasons["review P6#r2"] == ("out of scale: review P6#r2 field rating: "
                                       "99 is outside the scale {0,2,4,6,8,10}")
    assert "very sure" in reasons["review P7#r2"]


def test_jsonl_with_truncated_and_non_utf8_lines(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    good = json.dumps(paper("G1")).encode()
    path.write_bytes(good + b"\n" + good[:40] + b"\n" + b'{"title": "\xff\xfe"}\n'
                     + json.dumps(paper("G2")).encode() + b"\n")
    db = tmp_path / "w.duckdb"
    summary = load(db, path)
    assert summary.records_read == 4
    assert summary.rejected_by_reason == {"invalid json": 1, "invalid utf-8": 1}
    assert rows(db, "select record_key from raw.rejected_records order by 1") == [
        ("line 2",), ("line 3",)]


@pytest.mark.parametrize("content, message", [
    (b"", "empty file"),
    (b"\x00\x01\x02binary", "binary file"),
    (b"[{\"openreview_id\": 1", "invalid json"),
    (b"\x1f\x8b\x08\x00garbage", "corrupt gzip"),
])
def test_unreadable_files_fail_with_a_clear_error(tmp_path: Path, content: bytes,
                                                  message: str) -> None:
    path = tmp_path / "broken.json"
    path.write_bytes(content)
    project = Project(tmp_path / "w.duckdb", tmp_path)
    result = project.paperrank("ingest", "file", str(path), "--venue", "ICLR 2026", check=False)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_reload_is_a_no_op_and_snapshots_move_forward_only(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    first = write_json(tmp_path / "v1.json", [paper("S1"), paper("S2")])
    load(db, first, T0)
    again = load(db, first, T0)
    assert (again.papers_changed, again.reviews_changed) == (0, 0)

    newer = write_json(tmp_path / "v2.json", [paper("S1", rating=[8, 8]), paper("S2")])
    summary = load(db, newer, T1)
    assert (summary.papers_changed, summary.reviews_changed) == (0, 2)
    assert rows(db, "select rating from raw.reviews where paper_id = 'S1' order by 1") == [
        (8.0,), (8.0,)]
    history = rows(db, "select snapshot_at, rating from raw.review_history "
                       "where review_id = 'S1#r1' order by 1")
    assert [r[1] for r in history] == [6.0, 8.0]

    # an older snapshot loaded late never overwrites the newer scores
    load(db, first, datetime(2025, 1, 1, tzinfo=UTC))
    assert rows(db, "select rating from raw.reviews where paper_id = 'S1' order by 1") == [
        (8.0,), (8.0,)]


def test_real_iclr_file_loads_every_paper_and_review(tmp_path: Path) -> None:
    path = require_shared(ICLR / "accepted_papers.parquet")
    db = tmp_path / "w.duckdb"
    summary = load(db, path)
    assert (summary.records_read, summary.papers_loaded, summary.reviews_loaded) == (
        5358, 5358, 20928)
    assert summary.records_rejected == 0
