"""The API key never reaches the warehouse, the output or any file, whatever the endpoint does.

A local chat-completions server echoes the caller's key in every place an answer can carry
text: the model name, the finish reason, the id, the rationale, a category long enough that
a shortened error message would keep only a prefix of the key, an error body, and a second
copy spelled half in JSON \\u escapes.  An answer that holds the key is not stored at all
the paper's call fails, with a reason that does not hold it.  After a real
`classify run` and the labels it writes, the canary is searched in every column of every table
(as text), in everything printed, and in the bytes of every file the run left behind, the
warehouse file included.  (Other spellings of the key: test_hostile_endpoints.py.)
"""

from __future__ import annotations

import duckdb
from fake_llm_server import FakeLLM, seed_papers

from paperrank.classify.backends import ECHOED_KEY
from paperrank.cli import run as paperrank

CANARY = "sk-canary-7Qx2-NEVER-STORE-b41e9d0c5a"
FAST = ["--timeout", "2", "--no-progress"]


def test_an_echoed_key_is_stored_nowhere(tmp_path, monkeypatch, capsys):
    db = tmp_path / "w.duckdb"
    monkeypatch.setenv("PAPERRANK_DB", str(db))
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    monkeypatch.delenv("PAPERRANK_CLASSIFY_CONFIG", raising=False)
    seed_papers([{"paper_id": f"p{i}", "title": f"Paper {i}", "abstract": "a"} for i in range(3)])
    script = {
        "Paper 0": [{"status": 500, "echo_auth": True}] + [{"echo_key": "category"}] * 3,
        "Paper 1": [{"echo_key": "fields"}],
        "Paper 2": [{"status": 429, "echo_auth": True, "headers": {"Retry-After": "0"}},
                    {"echo_key": "fields"}],
    }
    with FakeLLM(script=script) as server:
        code = paperrank(["classify",
            "run", "--taxonomy", "icml2026", "--base-url", server.base_url, *FAST])
        asked = [{k.lower(): v for k, v in r["headers"].items()}.get("authorization")
                 for r in server.requests]
    out, err = capsys.readouterr()
    assert code == 1, err  # no paper got a valid answer
    assert asked and all(a == f"Bearer {CANARY}" for a in asked)  # the server did get the key

    con = duckdb.connect(str(db), read_only=True)
    try:
        responses = con.execute(
            "select paper_id, status, response_model, finish_reason, failure_reason, rationale, "
            "raw_response from raw.llm_responses order by paper_id, received_at").fetchall()
        # no echo was stored: each paper's call failed, saying why, and nothing of the answer
        assert [r[:2] for r in responses] == [("p0", "failed"), ("p1", "failed"), ("p2", "failed")]
        assert all(r[4] == ECHOED_KEY and r[2] is r[3] is r[5] is r[6] is None for r in responses)
        assert con.execute("select count(*) from raw.paper_labels").fetchone()[0] == 0
        hits = []
        for schema, table, column in con.execute(
                "select table_schema, table_name, column_name from information_schema.columns "
                "where table_catalog = current_database()").fetchall():
            found = con.execute(f'select count(*) from "{schema}"."{table}" where '
                                f'cast("{column}" as varchar) like ?', [f"%{CANARY[:12]}%"]
                                ).fetchone()[0]
            if found:
                hits.append(f"{schema}.{table}.{column}")
        assert hits == []
    finally:
        con.close()
    # not even a prefix long enough to be the key's start, in any output or file
    for text in (out, err):
        assert CANARY[:12] not in text
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert CANARY[:12].encode() not in path.read_bytes(), path
