"""Builders and checks shared by the OpenReview notes tests."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import duckdb
import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
SAMPLE = SHARED / "data" / "iclr2026" / "openreview_notes_sample.jsonl.gz"
VENUE_ID = "ICLR.cc/2026/Conference"
OFFICIAL_REVIEW = "/-/Official_Review"


def sample_path() -> Path:
    """The shared 800-note sample, or skip (with the reason printed) when it is absent."""
    if not SAMPLE.exists():
        pytest.skip(f"shared sample not found at {SAMPLE}; ../shared is absent")
    return SAMPLE


def read_sample(limit: int | None = None) -> list[dict[str, Any]]:
    with gzip.open(sample_path(), "rt", encoding="utf-8") as handle:
        notes = [json.loads(line) for line in handle]
    return notes[:limit] if limit else notes


def review(review_id: str = "R1", paper: str = "P1", mdate: int = 1_700_000_000_000,
           **scores: Any) -> dict[str, Any]:
    values = {"rating": 8, "confidence": 4, "soundness": 3, "contribution": 3,
              "presentation": 3, **scores}
    return {
        "id": review_id, "forum": paper, "replyto": paper, "mdate": mdate, "tmdate": mdate,
        "invitations": [f"{VENUE_ID}/Submission1/{OFFICIAL_REVIEW.lstrip('/')}",
                        f"{VENUE_ID}/-/Edit"],
        "signatures": [f"{VENUE_ID}/Submission1/Reviewer_{review_id.lower()}"],
        "domain": VENUE_ID,
        "content": {k: {"value": v} for k, v in values.items()},
    }


def note(note_id: str = "P1", replies: list[Any] | None = None, mdate: int = 1_700_000_000_000,
         **content: Any) -> dict[str, Any]:
    fields = {"title": f"Paper {note_id}", "abstract": "An abstract.", "keywords": ["k"],
              "primary_area": "optimization", "venue": "ICLR 2026 Poster",
              "venueid": VENUE_ID, "pdf": f"/pdf/{note_id}.pdf", **content}
    return {"id": note_id, "mdate": mdate, "content": fields,
            "replies": [review(f"{note_id}-R1", note_id)] if replies is None else replies}


def write_jsonl(path: Path, records: list[Any]) -> Path:
    with path.open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write((record if isinstance(record, str) else json.dumps(record)) + "\n")
    return path


def last_load(con: duckdb.DuckDBPyConnection) -> dict[str, Any]:
    cursor = con.execute("select * from raw.loads order by finished_at desc limit 1")
    names = [d[0] for d in cursor.description]
    return dict(zip(names, cursor.fetchone(), strict=True))


def assert_accounted(con: duckdb.DuckDBPyConnection, fresh: bool = True) -> dict[str, Any]:
    """records read = loaded + rejected, checked against the warehouse tables themselves."""
    load = last_load(con)
    assert load["records_read"] == (
        load["papers_loaded"] + load["reviews_loaded"] + load["records_rejected"]
    ), load
    rejected = con.execute(
        "select count(*) from raw.rejected_records where load_id = ?", [load["load_id"]]
    ).fetchone()[0]
    assert rejected == load["records_rejected"], "every rejection must be kept, none merged"
    if fresh:
        assert con.execute("select count(*) from raw.papers").fetchone()[0] == load["papers_loaded"]
        assert con.execute("select count(*) from raw.reviews").fetchone()[0] == load[
            "reviews_loaded"]
    return load


def rejection_kinds(con: duckdb.DuckDBPyConnection) -> set[str]:
    reasons = con.execute("select reason from raw.rejected_records").fetchall()
    return {reason.split(":", 1)[0] for (reason,) in reasons}
