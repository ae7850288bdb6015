"""`classify run --strategy sampled` against a real chat-completions server on 127.0.0.1 that
replays the peer LLM's ICLR 2026 labels (the answers labelling every paper would get).

The real-data test is the issue's bar: at least 35% fewer calls than labelling every paper, at
least 0.97 agreement with labelling every paper, and faults mid-run (the sample, then the LLM's
second round) resume without asking any answered paper again.
"""

from __future__ import annotations

import pandas as pd
import pytest
from fake_llm_server import FakeLLM, seed_papers
from project import ICLR, rows, warehouse_copy

from paperrank.classify.config import load_sampled_config
from paperrank.classify.sampled import BACKEND, draw
from paperrank.cli import run as paperrank

SECRET = "sk-sampled-test"
SETTINGS = load_sampled_config()


def classify(capsys, *argv: str) -> tuple[int, str]:
    code = paperrank(["classify", "run", "--no-progress", "--timeout", "5", *argv])
    out, _ = capsys.readouterr()
    return code, out


@pytest.fixture
def env(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.delenv("PAPERRANK_CLASSIFY_CONFIG", raising=False)


@pytest.mark.e2e  # four classify runs, about 2,600 requests
def test_sampled_on_iclr2026_saves_calls_agrees_and_resumes(iclr_loaded, tmp_path, monkeypatch, capsys, env):
    project = warehouse_copy(iclr_loaded, tmp_path)
    monkeypatch.setenv("PAPERRANK_DB", str(project.db))
    papers = pd.read_parquet(ICLR / "accepted_papers.parquet", columns=["openreview_id", "title"])
    peer = pd.read_parquet(ICLR / "peer_llm_labels.parquet", columns=["openreview_id", "llm_category"])
    answers = papers.merge(peer, on="openreview_id")
    # UNCLASSIFIED (1 paper) is no answer the schema allows: the replay says Other
    answers["answer"] = answers.llm_category.where(answers.llm_category != "UNCLASSIFIED", "Other")
    by_title = dict(zip(answers.title, answers.answer, strict=True))
    truth = dict(zip(answers.openreview_id, answers.answer, strict=True))
    title_of = dict(zip(answers.openreview_id, answers.title, strict=True))
    n = len(answers)
    share = max(SETTINGS.sample_share, SETTINGS.sample_min / n)
    ids = sorted(truth)
    sample = [p for p in ids if draw(SETTINGS.seed, p, "sample") < share]
    check = [p for p in ids if p not in sample and draw(SETTINGS.seed, p, "check") < SETTINGS.check_share]
    # run 1: three sample papers fail (HTTP 500 on both attempts): it stops before training
    # run 2: they are answered; three check papers fail in the LLM's second round
    # run 3: only those three are asked
    failing_sample, failing_check = sample[:3], check[:3]
    script = {title_of[p]: [{"status": 500}] * 2 for p in failing_sample + failing_check}
    base = ["--taxonomy", "iclr2026", "--strategy", "sampled", "--concurrency", "32", "--max-attempts", "2"]
    with FakeLLM(categories=by_title, script=script) as server:
        code1, out1 = classify(capsys, *base, "--base-url", server.base_url)
        asked1 = server.requests_per_title()
        code2, out2 = classify(capsys, *base, "--base-url", server.base_url)
        asked2 = server.requests_per_title()
        code3, out3 = classify(capsys, *base, "--base-url", server.base_url)
        asked3 = server.requests_per_title()
        requests3 = len(server.requests)
        code4, out4 = classify(capsys, *base, "--base-url", server.base_url)  # nothing left to do
        answered = dict(server.answered)
        total_requests = len(server.requests)

    assert code1 == 1 and "stopped before training: 3 sample papers" in out1, out1
    assert set(asked1) == {title_of[p] for p in sample}  # only the sample was asked
    assert code2 == 1 and "failures by reason" in out2, out2
    assert code3 == 0 and code4 == 0, out3 + out4
    assert total_requests == requests3  # the fourth run asked nothing
    # no answered paper was ever asked again: one 200 per title, the failed ones retried only
    assert max(answered.values()) == 1
    for p in failing_sample:
        assert asked2[title_of[p]] - asked1[title_of[p]] == 1
    for p in failing_check:
        assert asked3[title_of[p]] - asked2[title_of[p]] == 1
    assert {t for t in asked3 if asked3[t] != asked2[t]} == {title_of[p] for p in failing_check}
    assert "papers to classify: 0" in out4

    labels = dict(rows(project.db, "select paper_id, arg_max(category, labeled_at) from raw.paper_labels "
                                   "where taxonomy = 'iclr2026' and source like 'classify:%' group by 1"))
    sources = dict(rows(project.db, "select source, count(distinct paper_id) from raw.paper_labels "
                                    "where source like 'classify:%' group by 1"))
    models = {r[0] for r in rows(project.db, "select distinct model from raw.paper_labels "
                                             f"where source = 'classify:{BACKEND}'")}
    llm_papers = len(answered)
    saved = 1 - llm_papers / n
    agreement = sum(labels[p] == truth[p] for p in ids) / n
    print(f"sampled on ICLR 2026: {llm_papers} of {n} papers asked, {saved:.3f} saved, "
          f"agreement {agreement:.4f}")
    assert set(labels) == set(ids)  # every paper labelled, by the LLM or the classifier
    assert sources == {"classify:openai": llm_papers, "classify:classifier": n - llm_papers}
    assert models == {"classifier:Qwen/Qwen3.5-397B-A17B"}
    assert saved >= 0.35
    assert agreement >= 0.97
    assert f"calls saved: {n - llm_papers}" in out4 and "check sample agreement:" in out4


def test_a_venue_smaller_than_the_sample_is_labelled_by_the_llm_alone(tmp_path, monkeypatch, capsys, env):
    monkeypatch.setenv("PAPERRANK_DB", str(tmp_path / "w.duckdb"))
    seed_papers([{"paper_id": f"p{i:02d}", "title": f"Paper {i:02d}", "abstract": "Text."} for i in range(12)])
    with FakeLLM() as server:
        code, out = classify(capsys, "--taxonomy", "icml2026", "--strategy", "sampled",
                             "--base-url", server.base_url)
        assert code == 0 and len(server.requests) == 12
    assert "calls saved: 0" in out
    assert rows(tmp_path / "w.duckdb", "select distinct source from raw.paper_labels") == [("classify:openai",)]


def test_sampled_needs_the_llm_backend(tmp_path, monkeypatch, capsys, env):
    monkeypatch.setenv("PAPERRANK_DB", str(tmp_path / "w.duckdb"))
    seed_papers([{"paper_id": "p1", "title": "Paper", "abstract": "Text."}])
    code = paperrank(["classify", "run", "--taxonomy", "icml2026", "--strategy", "sampled",
                      "--backend", "keywords"])
    _, err = capsys.readouterr()
    assert code == 2 and "--strategy sampled" in err
