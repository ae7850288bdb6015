"""Loading real OpenReview notes: counts and scores, idempotency, snapshots, decisions."""

from __future__ import annotations

import copy
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from notes_testkit import (
    OFFICIAL_REVIEW,
    REPO,
    VENUE_ID,
    assert_accounted,
    note,
    read_sample,
    review,
    sample_path,
    write_jsonl,
)

from paperrank.core.schema import SIGNALS
from paperrank.core.warehouse import connect
from paperrank.ingest.notes import load_file
from paperrank.ingest.notes_parser import decide_status
from paperrank.ingest.profiles import resolve_profile
from paperrank.ingest.snapshots import write_snapshot

PROFILE = resolve_profile("ICLR 2026")


def load(db: Path, path: Path):
    con = connect(db)
    summary, report = load_file(con, path, "ICLR 2026", PROFILE, log=lambda message: None)
    return con, summary, report


def independent_reading() -> tuple[list[dict], dict[str, dict]]:
    """Read the sample with plain json: the latest version of every official review."""
    notes = read_sample()
    latest: dict[str, dict] = {}
    for paper in notes:
        for reply in paper["replies"]:
            if not any(i.endswith(OFFICIAL_REVIEW) for i in reply["invitations"]):
                continue
            if reply["id"] not in latest or reply["mdate"] > latest[reply["id"]]["mdate"]:
                latest[reply["id"]] = {
                    "paper_id": paper["id"], "mdate": reply["mdate"],
                    "reviewer": reply["signatures"][0].split("/")[-1],
                    "scores": tuple(float(reply["content"][s]["value"]) for s in SIGNALS),
                }
    return notes, latest


def test_sample_counts_and_scores_match_an_independent_reading(tmp_path):
    notes, latest = independent_reading()
    con, summary, report = load(tmp_path / "w.duckdb", sample_path())

    assert con.execute("select count(*) from raw.papers").fetchone()[0] == len(notes) == 800
    # Crawled before decisions: every venue string still says "... Submission", so an honest
    # reading finds no accepted paper yet (the README's 600 were accepted later).
    accepted = sum(1 for n in notes if "Submission" not in n["content"]["venue"])
    assert con.execute("select count(*) from raw.papers where is_accepted").fetchone()[0] == (
        accepted)
    withdrawn = sum(1 for n in notes if n["withdrawn"])
    assert con.execute(
        "select count(*) from raw.papers where status ilike '%withdrawn%' and not is_accepted"
    ).fetchone()[0] == withdrawn == 50

    rows = con.execute(
        f"select review_id, paper_id, reviewer, {', '.join(SIGNALS)} from raw.reviews"
    ).fetchall()
    loaded = {r[0]: {"paper_id": r[1], "reviewer": r[2], "scores": tuple(r[3:])} for r in rows}
    assert len(rows) == len(loaded) == len(latest)
    assert loaded == {k: {key: v[key] for key in ("paper_id", "reviewer", "scores")}
                      for k, v in latest.items()}

    load_row = assert_accounted(con)
    assert load_row["records_rejected"] == 0
    versions = sum(1 for n in notes for r in n["replies"]
                   if any(i.endswith(OFFICIAL_REVIEW) for i in r["invitations"]))
    assert report.superseded_versions == versions - len(latest)
    newest = max(max([n["mdate"], *(r["tmdate"] for r in n["replies"])]) for n in notes)
    assert load_row["snapshot_at"] == datetime.fromtimestamp(newest / 1000, UTC)


def test_loading_twice_changes_nothing(tmp_path):
    db = tmp_path / "w.duckdb"
    con, first, _ = load(db, sample_path())
    tables = ("raw.papers", "raw.reviews", "raw.review_history", "raw.rejected_records")
    before = {t: con.execute(f"select * from {t} order by all").fetchall() for t in tables}
    summary, _ = load_file(con, sample_path(), "ICLR 2026", PROFILE, log=lambda m: None)
    after = {t: con.execute(f"select * from {t} order by all").fetchall() for t in tables}
    assert before == after
    assert (summary.papers_changed, summary.reviews_changed) == (0, 0)
    assert summary.records_read == first.records_read


def test_newer_snapshot_updates_current_rows_and_keeps_history(tmp_path):
    notes = read_sample(limit=20)
    newer = copy.deepcopy(notes)
    paper = next(n for n in newer if not n["withdrawn"] and n["replies"])
    changed = next(r for r in paper["replies"] if any(
        i.endswith(OFFICIAL_REVIEW) for i in r["invitations"]))
    old_rating = changed["content"]["rating"]["value"]
    new_rating = 10 if old_rating != 10 else 8
    changed["content"]["rating"]["value"] = new_rating
    changed["mdate"] = changed["tmdate"] = changed["tmdate"] + 1
    paper["content"]["venue"] = "ICLR 2026 Oral"
    snapshots = tmp_path / "snapshots"
    older_path, _ = write_snapshot(notes, snapshots, VENUE_ID, datetime(2025, 11, 22, tzinfo=UTC))
    newer_path, _ = write_snapshot(newer, snapshots, VENUE_ID, datetime(2025, 12, 5, tzinfo=UTC))

    con, _, _ = load(tmp_path / "w.duckdb", older_path)
    reviews = con.execute("select count(*) from raw.reviews").fetchone()[0]
    load_file(con, newer_path, "ICLR 2026", PROFILE, log=lambda m: None)
    load_file(con, older_path, "ICLR 2026", PROFILE, log=lambda m: None)  # late: no effect

    current = con.execute("select rating from raw.reviews where review_id = ?",
                          [changed["id"]]).fetchall()
    assert current == [(float(new_rating),)]
    history = con.execute(
        "select snapshot_at, rating from raw.review_history where review_id = ? order by 1",
        [changed["id"]]).fetchall()
    assert [rating for _, rating in history] == [float(old_rating), float(new_rating)]
    assert con.execute("select count(*) from raw.review_history").fetchone()[0] == 2 * reviews
    assert con.execute("select is_accepted, status from raw.papers where paper_id = ?",
                       [paper["id"]]).fetchone() == (True, "ICLR 2026 Oral")


@pytest.mark.parametrize(("venue", "venueid", "extra", "expected"), [
    ("ICLR 2026 Poster", VENUE_ID, {}, True),
    ("ICLR 2026 Oral", VENUE_ID, {}, True),
    ("ICLR 2026 ConditionalPoster", VENUE_ID, {}, True),
    ("NeurIPS 2024 spotlight", "NeurIPS.cc/2024/Conference", {}, True),
    ("ICML 2025 oralposter", "ICML.cc/2025/Conference", {}, True),
    ("Submitted to ICLR 2026", f"{VENUE_ID}/Rejected_Submission", {}, False),
    ("ICLR 2026 Conference Desk Rejected Submission", "", {}, False),
    ("ICLR 2026 Conference Withdrawn Submission", "", {"withdrawn": True}, False),
    ("ICLR 2026 Conference Submission", f"{VENUE_ID}/Submission", {}, False),
    (None, VENUE_ID, {}, True),
])
def test_decisions_follow_the_venue_information(venue, venueid, extra, expected):
    paper = note(venue=venue, venueid=venueid, replies=[])
    paper.update(extra)
    assert decide_status(paper, [])[1] is expected


def test_decision_replies_settle_papers_still_marked_as_submissions():
    paper = note(venue="ICLR 2026 Conference Submission", venueid=f"{VENUE_ID}/Submission")
    decision = {"id": "D1", "invitations": [f"{VENUE_ID}/Submission1/-/Decision"], "mdate": 5,
                "content": {"decision": {"value": "Accept (Poster)"}}}
    withdrawal = {"id": "W1", "invitations": [f"{VENUE_ID}/Submission1/-/Withdrawal"]}
    assert decide_status(paper, [decision]) == ("Accept (Poster)", True)
    assert decide_status(paper, [dict(decision, content={"decision": "Reject"})])[1] is False
    assert decide_status(paper, [decision, withdrawal])[1] is False
    assert decide_status(paper, []) == ("ICLR 2026 Conference Submission", False)


def test_missing_signals_are_announced_and_left_empty(tmp_path):
    path = write_jsonl(tmp_path / "icml.jsonl", [
        note("P1", venue="ICML 2025 Poster", replies=[
            dict(review("R1", "P1"), content={"overall_recommendation": {"value": "4: Accept"}})
        ])])
    messages: list[str] = []
    con = connect(tmp_path / "w.duckdb")
    load_file(con, path, "ICML 2025", resolve_profile("ICML 2025"), log=messages.append)
    assert any("icml2025 review form has no field for confidence" in m for m in messages)
    assert con.execute(f"select {', '.join(SIGNALS)} from raw.reviews").fetchall() == [
        (4.0, None, None, None, None)]
    assert_accounted(con)


def test_cli_prints_the_summary(tmp_path):
    env = {"PAPERRANK_DB": str(tmp_path / "w.duckdb"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-m", "paperrank", "ingest", "notes", str(sample_path()), "--venue", "ICLR 2026"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    notes, latest = independent_reading()
    for line in (f"notes read: {len(notes)}", f"records read: {len(notes) + len(latest)}",
                 f"papers loaded: {len(notes)}", f"reviews loaded: {len(latest)}",
                 "records rejected: 0"):
        assert line in done.stdout
    assert "Traceback" not in done.stderr
