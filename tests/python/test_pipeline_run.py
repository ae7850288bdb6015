"""`make run`, the operator's one command, end to end against local fake servers.

A fake OpenReview (API v2, paged) serves 120 notes of the shared ICLR 2026 sample, some of them
marked accepted here; a fake chat-completions endpoint labels every paper it is asked about.
Real HTTP, real DuckDB, real dbt build, real quality gates, real CSV export.  Every expectation
is computed in this file from the notes served, not by the project's code.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import html
import itertools
import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import duckdb
import pytest
from fake_llm_server import FakeLLM
from notes_testkit import VENUE_ID, read_sample
from openreview_fake_server import FakeOpenReview, as_api_note
from project import FEW_REPLICATES, REPO, Project

pytestmark = pytest.mark.e2e

KEY = "sk-e2e-NEVER-STORE-9d41c7b2"
VENUE = "ICLR 2026"
TAXONOMY = "iclr2026"
NOTES = 120
OFFICIAL_REVIEW = "/-/Official_Review"
# The LLM's choices in the iclr2026 taxonomy, and the ranked categories with their CSV names.
LLM_CHOICES = ["SWE Agents", "Inference Optimisation", "Infrastructure", "AI for Life Sciences",
               "Robotics", "Other"]
RANKED = {"SWE Agents": "swe-agents", "Inference Optimisation": "inference-optimisation",
          "Infrastructure": "infrastructure", "AI for Life Sciences": "ai-for-life-sciences",
          "Robotics": "robotics", "Datasets & Benchmarks": "datasets-benchmarks"}
OVERRIDE_AREA = "datasets and benchmarks"


def plain(text: str) -> str:
    return " ".join(text.split())


def choose(title: str) -> str:
    """The fake model's deterministic answer for a title: a hash over the six choices."""
    return LLM_CHOICES[hashlib.sha256(plain(title).encode()).digest()[0] % len(LLM_CHOICES)]


def build_venue() -> tuple[list[dict[str, Any]], set[str]]:
    """The first notes of the sample, crawled before decisions, given decisions here.

    Withdrawn notes stay withdrawn; of the others every fifth stays submitted, every fifth is
    rejected and the rest are accepted (some orals, most posters)."""
    notes = read_sample(limit=NOTES)
    accepted: set[str] = set()
    for i, note in enumerate(notes):
        content = note["content"]
        if "Withdrawn" in content.get("venue", "") or note.get("withdrawn"):
            continue
        if i % 5 == 0:
            continue  # "ICLR 2026 Conference Submission": undecided
        if i % 5 == 1:
            content["venue"] = "Submitted to ICLR 2026"
            content["venueid"] = f"{VENUE_ID}/Rejected_Submission"
            continue
        content["venue"] = "ICLR 2026 Oral" if i % 7 == 0 else "ICLR 2026 Poster"
        content["venueid"] = VENUE_ID
        accepted.add(note["id"])
    return notes, accepted


def official_reviews(notes: list[dict[str, Any]]) -> dict[str, set[str]]:
    """Paper id -> ids of its official reviews (versions of one review count once)."""
    reviews: dict[str, set[str]] = defaultdict(set)
    for note in notes:
        for reply in note["replies"]:
            if any(i.endswith(OFFICIAL_REVIEW) for i in reply.get("invitations", [])):
                reviews[note["id"]].add(reply["id"])
    return reviews


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def few_replicates_settings() -> list[str]:
    """make's settings for `project.FEW_REPLICATES` (RANK_UNCERTAINTY_REPLICATES=20 ...)."""
    return [f"{name.upper()}={value}" for name, value in FEW_REPLICATES.items()]


def key_hits(db: Path) -> tuple[list[str], int]:
    """Every table or view column of the warehouse whose text holds the key; columns scanned."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        columns = con.execute(
            "select table_schema, table_name, column_name from information_schema.columns "
            "where table_catalog = current_database()").fetchall()
        hits = []
        for schema, table, column in columns:
            found = con.execute(
                f'select count(*) from "{schema}"."{table}" '
                f'where cast("{column}" as varchar) like ?', [f"%{KEY}%"]).fetchone()[0]
            if found:
                hits.append(f"{schema}.{table}.{column}")
        return hits, len(columns)
    finally:
        con.close()


def test_make_run_from_venue_id_to_csvs(tmp_path, monkeypatch):
    notes, accepted = build_venue()
    served = [as_api_note(n) for n in notes]
    by_id = {n["id"]: n for n in notes}
    reviews = official_reviews(notes)
    expected_category = {
        pid: ("Datasets & Benchmarks"
              if by_id[pid]["content"].get("primary_area", "").strip().lower() == OVERRIDE_AREA
              else choose(by_id[pid]["content"]["title"]))
        for pid in accepted}
    expected_ranked = {pid for pid, cat in expected_category.items()
                       if cat in RANKED and reviews.get(pid)}
    # the venue is built to exercise every path: not-accepted papers, Other, the override
    assert 0 < len(accepted) < NOTES
    assert "Other" in expected_category.values()
    assert "Datasets & Benchmarks" in expected_category.values()
    assert len({expected_category[p] for p in expected_ranked}) >= 4

    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("DBT_TARGET_PATH", str(tmp_path / "target"))
    monkeypatch.setenv("DBT_LOG_PATH", str(tmp_path / "logs"))
    for name in ("PAPERRANK_CLASSIFY_CONFIG", "OPENREVIEW_USERNAME", "OPENREVIEW_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    db, snapshots, exports = tmp_path / "w.duckdb", tmp_path / "snaps", tmp_path / "out" / "csv"
    project = Project(db, tmp_path)
    repo_snapshots = sorted((REPO / "snapshots").rglob("*")) if (REPO / "snapshots").exists() \
        else None

    def chooser(title: str | None, choices: list[str]) -> str:
        assert set(LLM_CHOICES) <= set(choices), choices
        return choose(html.unescape(title or ""))

    # through make: the operator's one command is the point (few replicates: the uncertainty
    # is not what this test reads)
    with FakeOpenReview(VENUE_ID, served) as openreview, FakeLLM(chooser=chooser) as llm:
        def make_run(*extra: str) -> str:
            result = project.run(
                "make", "--no-print-directory", "run", f"VENUE_ID={VENUE_ID}", f"VENUE={VENUE}",
                f"TAXONOMY={TAXONOMY}", "PROFILE=iclr2026", f"OPENREVIEW_URL={openreview.base_url}",
                f"LLM_URL={llm.base_url}", f"EXPORT_DIR={exports}", f"SNAPSHOT_DIR={snapshots}",
                f"REPORT_DIR={tmp_path / 'report'}", *few_replicates_settings(), *extra)
            return result.stdout + result.stderr

        output = make_run()
        first_requests = list(llm.requests)
        # a second run fetches again, loads the same notes, and asks the LLM nothing; its last
        # step, `$(MAKE) rank`, is the first run's again: MAKE=true makes that line a no-op
        output_again = make_run("MAKE=true")
        second_requests = llm.requests[len(first_requests):]
        notes_requests = list(openreview.requests)

    # -- the experts' report of what was just built ---------------------------------------
    assert f"report for {VENUE}: {tmp_path / 'report'}" in output

    # -- fetch: from the fake server, through a snapshot in the given folder, not the repo --
    assert notes_requests and all("details=replies" in r for r in notes_requests)
    snapshot_files = sorted(snapshots.rglob("*.jsonl.gz"))
    assert len(snapshot_files) == 2, snapshot_files
    with gzip.open(snapshot_files[0], "rt", encoding="utf-8") as handle:
        assert [json.loads(line) for line in handle] == served
    now = sorted((REPO / "snapshots").rglob("*")) if (REPO / "snapshots").exists() else None
    assert now == repo_snapshots, "make run wrote snapshots into the repository"
    assert (tmp_path / "target" / "manifest.json").exists(), "dbt ignored DBT_TARGET_PATH"

    # -- load ---------------------------------------------------------------------------------
    con = duckdb.connect(str(db), read_only=True)
    try:
        def ids(sql: str) -> set[str]:
            return {row[0] for row in con.execute(sql).fetchall()}

        assert ids("select paper_id from raw.papers") == set(by_id)
        assert con.execute("select count(*) from raw.papers").fetchone()[0] == NOTES
        assert ids("select paper_id from raw.papers where is_accepted") == accepted
        review_rows = con.execute("select paper_id, review_id from raw.reviews").fetchall()
        assert len(review_rows) == sum(len(r) for r in reviews.values())
        loaded: dict[str, set[str]] = defaultdict(set)
        for paper_id, review_id in review_rows:
            loaded[paper_id].add(review_id)
        assert loaded == reviews

        # -- classify: the labels are the fake model's answers ---------------------------------
        labels = dict(con.execute(
            "select paper_id, category from raw.paper_labels where taxonomy = ?", [TAXONOMY]
        ).fetchall())
        assert labels == {p: choose(by_id[p]["content"]["title"]) for p in accepted}

        # -- marts: every accepted paper is ranked or excluded, never both ---------------------
        ranked = con.execute("select paper_id, category from marts.paper_rankings").fetchall()
        excluded = ids("select paper_id from marts.excluded_papers")
        assert len(ranked) + len(excluded) == len(accepted)
        assert {p for p, _ in ranked} | excluded == accepted
        assert {p for p, _ in ranked} == expected_ranked
        assert dict(ranked) == {p: expected_category[p] for p in expected_ranked}
    finally:
        con.close()

    # -- LLM: one request per accepted paper, none on the second run ---------------------------
    asked = Counter(plain(html.unescape(r["title"] or "")) for r in first_requests)
    assert asked == Counter(plain(by_id[p]["content"]["title"]) for p in accepted)
    assert len(first_requests) == len(accepted)
    assert second_requests == []
    assert "papers to classify: 0" in output_again
    assert all({k.lower(): v for k, v in r["headers"].items()}["authorization"] == f"Bearer {KEY}"
               for r in first_requests)

    # -- export: one CSV per ranked category with papers, each ranked 1..n ---------------------
    per_category: dict[str, set[str]] = defaultdict(set)
    for pid in expected_ranked:
        per_category[expected_category[pid]].add(pid)
    files = sorted(exports.glob("*.csv"))
    assert [f.name for f in files] == sorted(f"{RANKED[c]}.csv" for c in per_category)
    exported: list[str] = []
    for category, members in per_category.items():
        rows = read_csv(exports / f"{RANKED[category]}.csv")
        assert [int(r["category_rank"]) for r in rows] == list(range(1, len(rows) + 1))
        assert {r["paper_id"] for r in rows} == members
        assert {r["category"] for r in rows} == {category}
        composites = [float(r["local_top_overall"]) for r in rows]
        assert all(b <= a + 1e-9 for a, b in itertools.pairwise(composites)), category
        exported += [r["paper_id"] for r in rows]
    assert len(exported) == len(set(exported)) and set(exported) == expected_ranked

    # -- the key: sent to the endpoint only, never printed, stored or exported -----------------
    for text in (output, output_again):
        assert KEY not in text
    for path in files:
        assert KEY not in path.read_text(encoding="utf-8")
    hits, scanned = key_hits(db)
    assert scanned > 50 and hits == []
    for path in (tmp_path / "logs").rglob("*"):
        if path.is_file():
            assert KEY not in path.read_text(encoding="utf-8", errors="replace"), path
