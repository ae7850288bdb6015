"""Hostile endpoints, against real HTTP servers on 127.0.0.1.

Before: 200,000 levels of nesting from OpenReview or the LLM endpoint (the page, the answer,
the model's message, the model list of `classify check`) were a RecursionError traceback, exit
1, and the LLM client read a gzip bomb whole; an endpoint echoing the API key upper-cased, with
`%2D` for "-", split by zero-width characters or in full-width letters got it stored in
raw.llm_responses and the labels' rationale (only the exact spelling was redacted); and the
LLM client followed a 307 to another host, posting the prompt there and storing its answer as
a label of the configured endpoint.  Now each is one line `error: ...` and exit 2 (a key echo
is a failed call of that paper, not stored), and nothing of it reaches the warehouse.
"""

from __future__ import annotations

import json
import re
import unicodedata
import urllib.parse
from pathlib import Path

import duckdb
import pytest
from fake_llm_server import SPELLINGS, FakeLLM, seed_papers
from notes_testkit import VENUE_ID
from openreview_fake_server import FakeOpenReview

from paperrank.classify.http import MAX_ANSWER_BYTES
from paperrank.cli import run as paperrank
from paperrank.core.network import MAX_JSON_DEPTH
from paperrank.ingest import openreview_client

DEEP = "[" * 200_000 + "]" * 200_000
CANARY = "sk-canary-7Qx2-NEVER-STORE-b41e9d0c5a"
FAST = ["--timeout", "5", "--no-progress", "--max-attempts", "1"]


@pytest.fixture
def warehouse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "w.duckdb"
    monkeypatch.setenv("PAPERRANK_DB", str(db))
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    monkeypatch.delenv("PAPERRANK_CLASSIFY_CONFIG", raising=False)
    return db


def one_line(err: str) -> str:
    """The whole of stderr but the crawl's progress bar: one `error: ...` line, no traceback."""
    lines = [line for line in re.split(r"[\r\n]+", err)
             if line.strip() and not line.startswith("fetching ")]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def stored(db: Path, sql: str) -> list[tuple]:
    if not db.exists():
        return []
    con = duckdb.connect(str(db), read_only=True)
    try:
        if not con.execute("select count(*) from information_schema.tables where "
                           "table_schema = 'raw' and table_name = 'llm_responses'").fetchone()[0]:
            return []
        return con.execute(sql).fetchall()
    finally:
        con.close()


def classify(capsys: pytest.CaptureFixture[str], server: FakeLLM, *extra: str) -> tuple[int, str, str]:
    code = paperrank(["classify", "run", "--taxonomy", "icml2026", "--base-url", server.base_url,
                      *FAST, *extra])
    out, err = capsys.readouterr()
    return code, out, err


def ingest(capsys: pytest.CaptureFixture[str], server: FakeOpenReview, snaps: Path) -> tuple[int, str]:
    code = paperrank(["ingest", "openreview", "--venue-id", VENUE_ID, "--base-url",
                      server.base_url, "--snapshot-dir", str(snaps), "--attempts", "2",
                      "--backoff", "0"])
    return code, capsys.readouterr().err


# -- nesting and size bounds: OpenReview ----------------------------------------------------

@pytest.mark.parametrize("status", [200, 400])
def test_a_deeply_nested_openreview_answer_is_one_line(tmp_path, monkeypatch, capsys, status):
    monkeypatch.setenv("PAPERRANK_DB", str(tmp_path / "w.duckdb"))
    body = '{"notes": ' + DEEP + "}" if status == 200 else '{"message": ' + DEEP + "}"
    with FakeOpenReview(VENUE_ID, [], {1: ("raw", status, body)}) as server:
        code, err = ingest(capsys, server, tmp_path / "snaps")
        requests = len(server.requests)
    assert code == 2, err
    line = one_line(err)
    assert "/notes" in line
    if status == 200:
        assert f"nested deeper than {MAX_JSON_DEPTH} levels" in line
        assert requests == 1  # refused, not retried
    else:
        assert "HTTP 400" in line
    assert not list((tmp_path / "snaps").glob("*.jsonl.gz"))  # no snapshot of a refused crawl


def test_an_oversized_openreview_answer_is_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PAPERRANK_DB", str(tmp_path / "w.duckdb"))
    monkeypatch.setattr(openreview_client, "MAX_BYTES", 1 << 20)  # the cap, made small
    body = json.dumps({"notes": [], "count": 0, "padding": "x" * (2 << 20)})
    with FakeOpenReview(VENUE_ID, [], {1: ("raw", 200, body)}) as server:
        code, err = ingest(capsys, server, tmp_path / "snaps")
    assert code == 2, err
    assert "larger than 1048576 bytes" in one_line(err) and "/notes" in err


def test_an_openreview_error_echoing_the_token_is_shown_without_it(tmp_path, monkeypatch, capsys):
    token = "tok-7Qx2-openreview-b41e9d"
    monkeypatch.setenv("PAPERRANK_DB", str(tmp_path / "w.duckdb"))
    monkeypatch.setenv("OPENREVIEW_USERNAME", "alice@example.org")
    monkeypatch.setenv("OPENREVIEW_PASSWORD", "pa55-word-never-shown")
    echo = json.dumps({"message": f"token {token.upper()} expired; password PA55%2DWORD-NEVER-SHOWN"})
    with FakeOpenReview(VENUE_ID, [], {1: ("raw", 403, echo)}, token=token,
                        credentials=("alice@example.org", "pa55-word-never-shown")) as server:
        code, err = ingest(capsys, server, tmp_path / "snaps")
    assert code == 2, err
    line = one_line(err)
    assert "HTTP 403" in line and "[redacted]" in line, line
    assert folded(token)[:10] not in folded(err) and "pa55" not in folded(err)


# -- nesting and size bounds: the LLM endpoint ----------------------------------------------

OVERSIZED = json.dumps({"pad": "x" * MAX_ANSWER_BYTES})
HOSTILE = {
    "response": {"raw_body": DEEP},             # the chat completion itself
    "message": {"content": DEEP},               # the model's answer inside a valid completion
    "oversized": {"raw_body": OVERSIZED},       # refused on its Content-Length
    "oversized, no length": {"unsized_body": OVERSIZED},  # counted as it arrives
    "declared too large": {"declared_length": MAX_ANSWER_BYTES + 1},  # refused before reading
    "gzip bomb": {"gzip_bomb": 64 << 20},       # 64 KB that inflate to 64 MB
}


@pytest.mark.parametrize("where", sorted(HOSTILE))
def test_a_hostile_llm_answer_is_one_line_and_nothing_is_stored(warehouse, capsys, where):
    seed_papers([{"paper_id": "p0", "title": "Paper 0", "abstract": "a"}])
    action = HOSTILE[where]
    with FakeLLM(script={"Paper 0": [action]}) as server:
        code, out, err = classify(capsys, server)
        endpoint = server.base_url
    assert code == 2, out + err
    line = one_line(err)
    assert endpoint in line and "paper p0" in line, line
    if where in ("response", "message"):
        assert f"nested deeper than {MAX_JSON_DEPTH} levels" in line
    else:
        assert f"larger than {MAX_ANSWER_BYTES} bytes" in line
    assert stored(warehouse, "select * from raw.llm_responses") == []


def test_classify_check_bounds_the_model_list(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    monkeypatch.delenv("PAPERRANK_CLASSIFY_CONFIG", raising=False)
    with FakeLLM(models_script=[{"raw_body": '{"object": "list", "data": ' + DEEP + "}"}]) as server:
        code = paperrank(["classify", "check", "--base-url", server.base_url])
    err = capsys.readouterr().err
    assert code == 2, err
    line = one_line(err)
    assert server.base_url in line and f"nested deeper than {MAX_JSON_DEPTH} levels" in line


# -- the key, in any spelling ------------------------------------------------------------

def folded(text: str) -> str:
    """The test's own normal form: JSON and percent escapes undone, NFKC, case folded, and
    every format, control and space character dropped."""
    for _ in range(3):
        text = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), text)
        text = urllib.parse.unquote(text)
    text = unicodedata.normalize("NFKC", text).casefold()
    return "".join(c for c in text if unicodedata.category(c)[0] not in "CZ")


def test_the_key_in_any_spelling_is_never_stored(warehouse, capsys, tmp_path):
    """Each spelling in every field of an answer, and each only inside the model's answer
    (JSON in a JSON string: escaped twice over); the last paper gets a plain answer."""
    echoes = [{"echo_key": where, "spelling": spelling}
              for where in ("fields", "message") for spelling in sorted(SPELLINGS)]
    echoes.append({"echo_key": "category", "spelling": "zero-width"})
    papers = [{"paper_id": f"p{i:02d}", "title": f"Paper {i}", "abstract": "a"}
              for i in range(len(echoes) + 1)]
    seed_papers(papers)
    script = {f"Paper {i}": [echo] for i, echo in enumerate(echoes)}
    with FakeLLM(script=script) as server:
        code, out, err = classify(capsys, server)
    assert code == 1, err  # the echoing papers failed; the run went on
    rows = stored(warehouse, "select paper_id, status, failure_reason, raw_response, rationale "
                             "from raw.llm_responses order by paper_id")
    by_paper: dict[str, list[tuple]] = {}
    for row in rows:
        by_paper.setdefault(row[0], []).append(row[1:])
    assert set(by_paper) == {p["paper_id"] for p in papers}
    for paper in papers[:-1]:  # one row each: the failure, with nothing of the answer
        [(status, reason, raw, rationale)] = by_paper[paper["paper_id"]]
        assert status == "failed" and raw is None and rationale is None, paper["paper_id"]
        assert "API key" in reason and "not stored" in reason, reason
    assert [r[0] for r in by_paper[papers[-1]["paper_id"]]] == ["ok"]
    assert "echoed the API key" in out  # the summary's reason

    key = folded(CANARY)
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        for schema, table, column in con.execute(
                "select table_schema, table_name, column_name from information_schema.columns "
                "where table_catalog = current_database()").fetchall():
            for (value,) in con.execute(f'select distinct cast("{column}" as varchar) '
                                        f'from "{schema}"."{table}"').fetchall():
                assert value is None or key[:12] not in folded(value), (schema, table, column)
    finally:
        con.close()
    for text in (out, err):
        assert key[:12] not in folded(text)
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert key[:12] not in folded(path.read_bytes().decode("latin-1")), path


# -- redirects -------------------------------------------------------------------------

def test_a_redirect_to_another_host_is_refused_and_nothing_is_stored(warehouse, capsys):
    seed_papers([{"paper_id": f"p{i}", "title": f"Paper {i}", "abstract": "a"} for i in range(3)])
    with FakeLLM() as other:
        moved = {"status": 307, "headers": {"Location": other.base_url + "/chat/completions"}}
        with FakeLLM(script={f"Paper {i}": [moved] for i in range(3)}) as origin:
            code, out, err = classify(capsys, origin)
            hosts = [urllib.parse.urlsplit(s.base_url).netloc for s in (origin, other)]
        assert other.requests == []  # the prompt never went there
    assert code == 2, out + err
    line = one_line(err)
    assert all(host in line for host in hosts) and "HTTP 307" in line, line
    assert CANARY not in out + err
    assert stored(warehouse, "select * from raw.llm_responses") == []
    assert stored(warehouse, "select * from raw.paper_labels") == []


def test_a_redirect_to_the_same_host_is_followed(warehouse, capsys):
    seed_papers([{"paper_id": "p0", "title": "Paper 0", "abstract": "a"}])
    with FakeLLM() as server:
        moved = {"status": 307, "headers": {"Location": server.base_url + "/moved/chat/completions"}}
        server.script["Paper 0"] = [moved]
        code, out, err = classify(capsys, server)
        paths = [r["path"] for r in server.requests]
    assert code == 0, err
    assert paths == ["/v1/chat/completions", "/v1/moved/chat/completions"]
    assert [r[0] for r in stored(warehouse, "select status from raw.llm_responses")] == ["ok"]


def test_classify_check_refuses_a_redirect_to_another_host(monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    monkeypatch.delenv("PAPERRANK_CLASSIFY_CONFIG", raising=False)
    with FakeLLM() as other:
        moved = {"status": 307, "headers": {"Location": other.base_url + "/models"}}
        with FakeLLM(models_script=[moved]) as origin:
            code = paperrank(["classify", "check", "--base-url", origin.base_url])
        assert other.gets == []
    err = capsys.readouterr().err
    assert code == 2, err
    line = one_line(err)
    assert urllib.parse.urlsplit(other.base_url).netloc in line and "another host" in line
