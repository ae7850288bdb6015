"""Fetching a venue from a real local HTTP server speaking OpenReview API v2, with faults."""

from __future__ import annotations

import gzip
import json
import os
import stat
from datetime import UTC, datetime

import pytest
from notes_testkit import VENUE_ID, assert_accounted, read_sample
from openreview_fake_server import FakeOpenReview, as_api_note

from paperrank.cli import run as paperrank
from paperrank.core.schema import SIGNALS
from paperrank.core.warehouse import connect
from paperrank.ingest.notes import load_file
from paperrank.ingest.openreview import fetch_snapshot, venue_name
from paperrank.ingest.openreview_client import Credentials, OpenReviewClient, RetryPolicy
from paperrank.ingest.profiles import resolve_profile
from paperrank.ingest.snapshots import default_dir, snapshot_time, write_snapshot

FAST = RetryPolicy(attempts=4, backoff_initial=0.001, backoff_max=0.002, retry_after_max=30,
                   timeout=10)
PASSWORD = "s3cret-pa55word"


def read_snapshot(path):
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def client_for(server, waits=None, credentials=None, policy=FAST):
    return OpenReviewClient(server.base_url, credentials, policy,
                            sleep=(waits.append if waits is not None else lambda s: None),
                            log=lambda message: None)


def test_fetch_survives_throttling_errors_and_dropped_connections(tmp_path):
    served = [as_api_note(n) for n in read_sample()]
    faults = {2: ("status", 429, {"Retry-After": "2"}), 4: ("status", 500, {}),
              5: ("status", 503, {}), 7: ("drop",), 10: ("status", 502, {})}
    waits: list[float] = []
    with FakeOpenReview(VENUE_ID, served, faults) as server:
        path, count = fetch_snapshot(client_for(server, waits), VENUE_ID, tmp_path / "snaps",
                                     page_size=100, progress=False)
        requests = list(server.requests)
    fetched = read_snapshot(path)
    assert fetched == served  # same notes, same order, same bytes of content
    assert count == len(served) and len({n["id"] for n in fetched}) == len(served)
    assert len(requests) == 8 + len(faults)  # 8 pages, each fault retried once
    assert waits[0] >= 2.0, "Retry-After must be honoured"
    assert len(waits) == len(faults)
    assert all("details=replies" in r and "invitation=ICLR.cc%2F2026" in r for r in requests)
    assert snapshot_time(path) is not None and not list(path.parent.glob(".*partial"))


def test_fetched_snapshot_loads_like_the_crawled_sample(tmp_path):
    """Wrapped API values ({"value": ...}, details.replies) load exactly as plain ones."""
    notes = read_sample(limit=120)
    plain = tmp_path / "plain.jsonl"
    plain.write_text("".join(json.dumps(n) + "\n" for n in notes))
    with FakeOpenReview(VENUE_ID, [as_api_note(n) for n in notes]) as server:
        path, _ = fetch_snapshot(client_for(server), VENUE_ID, tmp_path / "snaps",
                                 page_size=50, progress=False)
    profile = resolve_profile("ICLR 2026")
    tables = []
    for name, source in (("a", plain), ("b", path)):
        con = connect(tmp_path / f"{name}.duckdb")
        load_file(con, source, "ICLR 2026", profile, log=lambda m: None)
        assert_accounted(con)
        tables.append((
            con.execute("select paper_id, title, abstract, keywords, status, is_accepted, pdf_url "
                        "from raw.papers order by all").fetchall(),
            con.execute(f"select review_id, reviewer, {', '.join(SIGNALS)} from raw.reviews "
                        "order by all").fetchall(),
        ))
    assert tables[0] == tables[1]
    assert len(tables[0][0]) == 120 and len(tables[0][1]) > 300


def test_gives_up_with_one_clear_line_and_no_partial_snapshot(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PAPERRANK_DB", str(tmp_path / "w.duckdb"))
    faults = {i: ("status", 503, {"Retry-After": "0"}) for i in range(1, 20)}
    with FakeOpenReview(VENUE_ID, [as_api_note(n) for n in read_sample(limit=5)],
                        faults) as server:
        rc = paperrank(["ingest",
            "openreview", "--venue-id", VENUE_ID, "--base-url", server.base_url,
            "--snapshot-dir", str(tmp_path / "snaps"), "--attempts", "2", "--backoff", "0.01"])
        assert len(server.requests) == 2
    assert rc == 2
    errors = [line for line in capsys.readouterr().err.splitlines() if line.startswith("error")]
    assert errors == ["error: OpenReview GET /notes failed after 2 attempts: HTTP 503 "
                      "(injected)"]
    assert list((tmp_path / "snaps").iterdir()) == []  # the partial file was removed


def test_refusals_are_not_retried(tmp_path):
    faults = {1: ("status", 404, {})}
    with FakeOpenReview(VENUE_ID, [], faults) as server:
        with pytest.raises(ValueError, match="HTTP 404"):
            list(client_for(server).iter_submissions(VENUE_ID))
        assert len(server.requests) == 1


def test_login_uses_the_token_and_never_leaks_the_password(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PAPERRANK_DB", str(tmp_path / "w.duckdb"))
    monkeypatch.setenv("OPENREVIEW_USERNAME", "alice@example.org")
    monkeypatch.setenv("OPENREVIEW_PASSWORD", PASSWORD)
    served = [as_api_note(n) for n in read_sample(limit=30)]
    with FakeOpenReview(VENUE_ID, served, credentials=("alice@example.org", PASSWORD)) as server:
        rc = paperrank(["ingest",
            "openreview", "--venue-id", VENUE_ID, "--base-url", server.base_url,
            "--snapshot-dir", str(tmp_path / "snaps")])
        assert set(server.auth_headers) == {"Bearer tok-123"}
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert "papers loaded: 30" in out and "notes read: 30" in out
    snapshot = next((tmp_path / "snaps").glob("*.jsonl.gz"))
    for text in (out, err, gzip.decompress(snapshot.read_bytes()).decode()):
        assert PASSWORD not in text and "tok-123" not in text
    con = connect(tmp_path / "w.duckdb")
    assert PASSWORD not in str(con.execute("select * from raw.loads").fetchall())
    assert_accounted(con)

    monkeypatch.setenv("OPENREVIEW_PASSWORD", "wrong-" + PASSWORD)
    with FakeOpenReview(VENUE_ID, served, credentials=("alice@example.org", PASSWORD)) as server:
        rc = paperrank(["ingest",
            "openreview", "--venue-id", VENUE_ID, "--base-url", server.base_url,
            "--snapshot-dir", str(tmp_path / "snaps2")])
    out, err = capsys.readouterr()
    assert rc == 2
    assert err.strip() == ("error: OpenReview login failed (HTTP 403); check "
                           "OPENREVIEW_USERNAME and OPENREVIEW_PASSWORD")
    assert "alice" not in err and PASSWORD not in err


def test_client_repr_and_credentials_hide_secrets():
    credentials = Credentials("alice", PASSWORD)
    client = OpenReviewClient("http://127.0.0.1:9", credentials)
    client._token = "tok-xyz"
    for text in (repr(credentials), repr(client), str(vars(client).get("policy"))):
        assert PASSWORD not in text and "tok-xyz" not in text and "alice" not in text


def test_snapshots_are_immutable(tmp_path):
    taken = datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)
    path, count = write_snapshot([{"id": "A"}], tmp_path, VENUE_ID, taken)
    assert count == 1 and snapshot_time(path) == taken
    assert path.name == "iclr-cc-2026-conference_20260102T030405678901Z.jsonl.gz"
    assert not os.stat(path).st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
    with pytest.raises(FileExistsError, match="never overwritten"):
        write_snapshot([{"id": "B"}], tmp_path, VENUE_ID, taken)
    assert read_snapshot(path) == [{"id": "A"}]


def test_names_from_venue_ids():
    assert venue_name("ICML.cc/2026/Conference") == "ICML 2026"
    assert venue_name("NeurIPS.cc/2025/Datasets_and_Benchmarks_Track") == "NeurIPS 2025"
    assert str(default_dir("ICLR.cc/2026/Conference")) == "snapshots/iclr-cc-2026-conference"
    assert resolve_profile("ICML 2026").name == "icml2026"
