"""A classify run killed with SIGKILL mid-way loses nothing and the rerun asks only for the rest."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
from fake_llm_server import FakeLLM, seed_papers

ROOT = Path(__file__).resolve().parents[2]
N = 16


def cli(db: Path, base_url: str) -> list[str]:
    return [sys.executable, "-m", "paperrank", "classify", "run", "--taxonomy", "icml2026", "--base-url",
            base_url, "--concurrency", "2", "--timeout", "5", "--backoff", "0.01",
            "--no-progress"]


def test_sigkill_mid_run_then_resume(tmp_path, monkeypatch):
    db = tmp_path / "w.duckdb"
    monkeypatch.setenv("PAPERRANK_DB", str(db))
    seed_papers([{"paper_id": f"p{i:02d}", "title": f"Paper {i:02d}", "abstract": "Text."}
                 for i in range(N)])
    env = {**os.environ, "PAPERRANK_DB": str(db), "OPENAI_API_KEY": "sk-resume-test"}
    with FakeLLM(delay=0.25) as server:
        process = subprocess.Popen(cli(db, server.base_url), cwd=ROOT, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.time() + 30
        while sum(server.answered.values()) < 5 and time.time() < deadline:
            time.sleep(0.02)
        time.sleep(0.1)  # let the answers just sent reach the warehouse
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
        assert process.returncode == -signal.SIGKILL
        before = server.requests_per_title()

        con = duckdb.connect(str(db), read_only=True)
        stored = {r[0] for r in con.execute(
            "select paper_id from raw.llm_responses where status = 'ok'").fetchall()}
        con.close()
        assert 3 <= len(stored) < N, stored

        server.delay = 0.0
        rerun = subprocess.run(cli(db, server.base_url), cwd=ROOT, env=env,
                               capture_output=True, text=True, timeout=60)
        assert rerun.returncode == 0, rerun.stderr
        assert f"papers to classify: {N - len(stored)}" in rerun.stdout
        after = server.requests_per_title()

    for i in range(N):
        title, paper = f"Paper {i:02d}", f"p{i:02d}"
        if paper in stored:  # answered and stored before the kill: never asked again
            assert after[title] == before[title] == 1, title
        else:  # in flight or never asked: asked once more at most
            assert after[title] - before[title] == 1, title
    con = duckdb.connect(str(db), read_only=True)
    try:
        per_paper = con.execute(
            "select paper_id, count(*) from raw.paper_labels group by paper_id").fetchall()
        ok_rows = con.execute(
            "select count(*) from raw.llm_responses where status = 'ok'").fetchone()[0]
    finally:
        con.close()
    assert len(per_paper) == N and all(count == 1 for _, count in per_paper)
    assert ok_rows == N

    # a third run: nothing to do, no request at all
    with FakeLLM() as server:
        third = subprocess.run(cli(db, server.base_url), cwd=ROOT, env=env,
                               capture_output=True, text=True, timeout=60)
        assert third.returncode == 0 and server.requests == []
    assert "papers to classify: 0" in third.stdout
