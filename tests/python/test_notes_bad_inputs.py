"""A catalogue of bad inputs: each gives a clear error or rejected records, never a traceback,
and never a silently missing row (records read = rows loaded + rows rejected)."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from notes_testkit import REPO, assert_accounted, note, rejection_kinds, review, write_jsonl

from paperrank.cli import run as paperrank
from paperrank.core.warehouse import connect

GOOD = note("GOOD")  # every catalogue file also holds this paper and its one review

LINES: dict[str, tuple[list[Any], str, tuple[int, int, int]]] = {
    # name: (records after GOOD, rejection kind expected, (papers, reviews, rejected) loaded)
    "truncated json line": (['{"id": "P2", "content": {"title": "cut he'], "invalid json",
                            (1, 1, 1)),
    "title of the wrong type": ([note("P2", title=42)], "wrong type", (1, 1, 2)),
    "keywords of the wrong type": ([note("P2", keywords={"a": 1})], "wrong type", (1, 1, 2)),
    "missing content": ([{"id": "P2", "mdate": 1, "replies": []}], "missing content", (1, 1, 1)),
    "content is a list": ([{"id": "P2", "content": ["x"]}], "wrong type", (1, 1, 1)),
    "out-of-scale score": ([note("P2", replies=[review("R2", "P2", rating=99)])],
                           "out of scale", (2, 1, 1)),
    "unparsable score text": ([note("P2", replies=[review("R2", "P2", soundness="excellent")])],
                              "unparsable score", (2, 1, 1)),
    "score as a list": ([note("P2", replies=[review("R2", "P2", rating=[8, 6])])],
                        "unparsable score", (2, 1, 1)),
    "score as a boolean": ([note("P2", replies=[review("R2", "P2", confidence=True)])],
                           "unparsable score", (2, 1, 1)),
    "score as NaN": (['{"id": "P2", "content": {"title": "t"}, "replies": ['
                      + json.dumps(review("R2", "P2")).replace('"rating": {"value": 8}',
                                                               '"rating": {"value": NaN}')
                      + "]}"], "unparsable score", (2, 1, 1)),
    "review of an unknown paper": ([review("R9", "NOPE")], "unknown paper", (1, 1, 1)),
    "review filed under another note": ([note("P2", replies=[review("R2", "ELSEWHERE")])],
                                        "unknown paper", (2, 1, 1)),
    "duplicate review": ([note("P2", replies=[review("R2", "P2"), review("R2", "P2")])],
                         "duplicate review", (2, 2, 1)),
    "duplicate note": ([note("GOOD", title="again", replies=[])], "duplicate note", (1, 1, 1)),
    "note without id": ([{"content": {"title": "no id"}, "replies": [review("R3", "")]}],
                        "missing id", (1, 1, 2)),
    "review without id": ([note("P2", replies=[{**review("R2", "P2"), "id": None}])],
                          "missing id", (2, 1, 1)),
    "reply without invitation": ([note("P2", replies=[{"id": "C1", "content": {}}])],
                                 "missing invitation", (2, 1, 1)),
    "replies that are not a list": ([note("P2", replies="garbage")], "invalid reply", (2, 1, 1)),
    "nested garbage in replies": ([note("P2", replies=[42, [None], review("R2", "P2")])],
                                  "invalid reply", (2, 2, 2)),
    "review content not an object": ([note("P2", replies=[{**review("R2", "P2"),
                                                          "content": "x"}])],
                                     "missing content", (2, 1, 1)),
    "a line that is not an object": (["[1, 2, 3]", "17"], "invalid note", (1, 1, 2)),
    "deeply nested json": (["[" * 100_000 + "]" * 100_000], "invalid json", (1, 1, 1)),
    "huge field": ([note("P2", abstract="x" * 300_000)], "oversized field", (1, 1, 2)),
}


@pytest.fixture
def warehouse(tmp_path, monkeypatch) -> Path:
    db = tmp_path / "w.duckdb"
    monkeypatch.setenv("PAPERRANK_DB", str(db))
    return db


def cli(*argv: str) -> int:
    return paperrank(["ingest", "notes", *argv])


@pytest.mark.parametrize("name", sorted(LINES))
def test_bad_record_is_rejected_and_accounted_for(name, tmp_path, warehouse, capsys):
    records, kind, (papers, reviews, rejected) = LINES[name]
    path = write_jsonl(tmp_path / "notes.jsonl", [GOOD, *records])
    assert cli(str(path), "--venue", "ICLR 2026") == 0
    out = capsys.readouterr().out
    con = connect(warehouse)
    load = assert_accounted(con)
    assert (load["papers_loaded"], load["reviews_loaded"], load["records_rejected"]) == (
        papers, reviews, rejected), out
    assert kind in rejection_kinds(con)
    assert f"records rejected: {rejected}" in out and kind in out
    assert con.execute("select count(*) from raw.reviews where review_id = 'GOOD-R1'"
                       ).fetchone()[0] == 1
    for (reason,) in con.execute("select reason from raw.rejected_records").fetchall():
        assert ": " in reason and len(reason) < 400, reason


def test_non_utf8_line_is_rejected(tmp_path, warehouse, capsys):
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(json.dumps(GOOD).encode() + b"\n" + '{"id": "P2", "content": {"title": '
                     '"café"}}\n'.encode("latin-1"))
    assert cli(str(path), "--venue", "ICLR 2026") == 0
    con = connect(warehouse)
    assert_accounted(con)
    assert rejection_kinds(con) == {"invalid utf-8"}


def test_oversized_line_is_rejected_without_reading_it_whole(tmp_path, warehouse):
    from paperrank.ingest.notes import load_file
    from paperrank.ingest.profiles import resolve_profile

    path = write_jsonl(tmp_path / "big.jsonl", [GOOD, note("P2", abstract="y" * 100_000),
                                                note("P3")])
    con = connect(warehouse)
    load_file(con, path, "ICLR 2026", resolve_profile("ICLR 2026"), max_line_bytes=50_000,
              log=lambda m: None)
    load = assert_accounted(con)
    assert rejection_kinds(con) == {"oversized record"}
    assert load["records_read"] == 5  # GOOD, its review, the big line, P3, its review


FILES: dict[str, tuple[bytes, str]] = {
    "empty file": (b"", "empty file"),
    "only whitespace": (b"\n \n\t\n", "empty file"),
    "binary file": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)), "binary file"),
    "corrupt gzip": (gzip.compress(json.dumps(GOOD).encode() * 50)[:120], "corrupt gzip"),
    "broken json array": (b'[{"id": "P1", "content": ', "invalid json"),
}


@pytest.mark.parametrize("name", sorted(FILES))
def test_bad_file_gives_one_clear_error(name, tmp_path, warehouse, capsys):
    content, message = FILES[name]
    path = tmp_path / ("notes.jsonl.gz" if name == "corrupt gzip" else "notes.jsonl")
    path.write_bytes(content)
    assert cli(str(path), "--venue", "ICLR 2026") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and message in err[0], err
    con = connect(warehouse)
    assert con.execute("select count(*) from raw.loads").fetchone()[0] == 0


def test_missing_file_and_folder_and_unknown_profile(tmp_path, warehouse, capsys):
    assert cli(str(tmp_path / "nope.jsonl"), "--venue", "ICLR 2026") == 2
    assert cli(str(tmp_path), "--venue", "ICLR 2026") == 2
    path = write_jsonl(tmp_path / "notes.jsonl", [GOOD])
    assert cli(str(path), "--venue", "Some Workshop 2031") == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 3 and all(e.startswith("error: ") for e in errors), errors
    assert "no review-form profile" in errors[2]


def test_a_bad_file_never_shows_a_traceback(tmp_path):
    path = tmp_path / "binary.jsonl"
    path.write_bytes(bytes(range(256)) * 4)
    done = subprocess.run(
        [sys.executable, "-m", "paperrank", "ingest", "notes", str(path), "--venue", "ICLR 2026"],
        cwd=REPO, env={"PAPERRANK_DB": str(tmp_path / "w.duckdb"), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: binary file") and "Traceback" not in done.stderr


def test_the_catalogue_is_broad_enough():
    assert len(LINES) + len(FILES) + 3 >= 15
    assert len({kind for _, kind, _ in LINES.values()}) >= 12
