"""Every LLM answer is stored up to a cap, with its full length and sha256,
rejected ones included.  Hostile answers once grew the warehouse from 1.5 MB to 195 MB for 8
papers; here 8 papers each get 3 MB answers (invalid JSON, then a valid shape with a 3 MB
rationale, which the schema refuses) from a real chat-completions server on 127.0.0.1."""

from __future__ import annotations

import hashlib
import json

import duckdb
import pytest
from fake_llm_server import FakeLLM, seed_papers
from test_classify_runner import FAST, classify, papers, query, warehouse  # noqa: F401

from paperrank.classify.store import RAW_RESPONSE_CAP, TEXT_CAP, ResponseStore
from paperrank.core.errors import PaperrankError

HUGE = 3_000_000


def test_hostile_answers_are_capped_with_length_and_hash(warehouse, capsys):  # noqa: F811
    seed_papers(papers(8))
    junk = "{" + "x" * HUGE  # invalid JSON, 3 MB
    long_valid = json.dumps({"category": "Agentic AI", "confidence": "high",
                             "rationale": "r" * HUGE})
    script = {f"Paper {i:03d}": [{"content": junk}, {"content": long_valid}] for i in range(8)}
    with FakeLLM(script=script) as server:
        classify(capsys, "--taxonomy", "icml2026", "--base-url", server.base_url,
                 "--invalid-attempts", "3", *FAST)
    rows = query(warehouse, "select status, length(raw_response), raw_response_chars, "
                            "raw_response_sha256, length(rationale), length(failure_reason) "
                            "from raw.llm_responses")
    assert len(rows) >= 16
    invalid = [r for r in rows if r[0] == "invalid"]
    assert len([r for r in invalid if r[2] > HUGE]) >= 8  # hostile answers, stored capped
    for status, stored, full, sha, rationale, reason in rows:
        assert stored <= RAW_RESPONSE_CAP + 64, status
        assert full is not None and full == stored or (full > HUGE and status == "invalid")
        assert len(sha) == 64
        assert rationale is None or rationale <= TEXT_CAP + 64
        assert reason is None or reason <= TEXT_CAP + 64
    size = warehouse.stat().st_size + (warehouse.with_suffix(".duckdb.wal").stat().st_size
                                       if warehouse.with_suffix(".duckdb.wal").exists() else 0)
    assert size < 20_000_000, size  # 16 answers of 3 MB would be 48 MB


def test_hash_is_of_the_whole_answer_and_bad_status_is_one_line(tmp_path):
    con = duckdb.connect(str(tmp_path / "w.duckdb"))
    store = ResponseStore(con)
    answer = "é" * (RAW_RESPONSE_CAP * 2)
    store.record({"paper_id": "p", "taxonomy": "t", "backend": "b", "model": "m",
                  "prompt_hash": "h", "status": "invalid", "raw_response": answer})
    with pytest.raises(PaperrankError, match="unknown response status 'maybe'"):
        store.record({"status": "maybe"})
    store.close()
    stored, full, sha = con.execute("select raw_response, raw_response_chars, raw_response_sha256 "
                                    "from raw.llm_responses").fetchone()
    con.close()
    assert full == len(answer) and sha == hashlib.sha256(answer.encode()).hexdigest()
    assert stored.startswith("é" * RAW_RESPONSE_CAP) and stored.endswith(
        f"[truncated: {len(answer)} characters in all]")
