"""The classifier's audit table and the path from its answers to `raw.paper_labels`.

`raw.llm_responses` keeps one row per answer the moment it arrives (valid or not), plus one
`failed` row when a paper is given up for a run.  It lives in the warehouse file, written
through the single connection of the running process (one writer thread, a few milliseconds
behind the answers), so a run killed at any moment keeps every answer it stored, and the
next run skips those papers.  Labels are derived from the
`ok` rows (one per paper, taxonomy, model and prompt), so deriving them again is a no-op.
"""

from __future__ import annotations

import hashlib
import queue
import threading
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import duckdb

from paperrank.core.errors import PaperrankError
from paperrank.core.loads import Batch, write_batch

RESPONSES_DDL = """
create schema if not exists raw;
create table if not exists raw.llm_responses (
    response_id varchar not null,
    run_id varchar not null,
    paper_id varchar not null,
    taxonomy varchar not null,
    backend varchar not null,
    model varchar not null,
    prompt_hash varchar not null,
    status varchar not null,          -- ok | invalid | failed
    category varchar,
    confidence varchar,
    rationale varchar,
    failure_reason varchar,
    attempt integer,
    http_status integer,
    finish_reason varchar,
    response_model varchar,
    prompt_tokens bigint,
    completion_tokens bigint,
    total_tokens bigint,
    latency_ms double,
    requested_at timestamptz,
    received_at timestamptz not null,
    endpoint varchar,
    raw_response varchar
);
alter table raw.llm_responses add column if not exists raw_response_chars bigint;
alter table raw.llm_responses add column if not exists raw_response_sha256 varchar;
"""

RESPONSE_COLUMNS = (
    "response_id", "run_id", "paper_id", "taxonomy", "backend", "model", "prompt_hash", "status",
    "category", "confidence", "rationale", "failure_reason", "attempt", "http_status",
    "finish_reason", "response_model", "prompt_tokens", "completion_tokens", "total_tokens",
    "latency_ms", "requested_at", "received_at", "endpoint", "raw_response",
    "raw_response_chars", "raw_response_sha256",
)
STATUSES = ("ok", "invalid", "failed")
# An answer is evidence, not payload: a hostile or broken endpoint once grew the warehouse
# from 1.5 MB to 195 MB with 8 answers.  Text is kept up to these lengths (characters); the
# whole answer's length and sha256 are stored beside it, so a truncated one is still
# identifiable and comparable.
RAW_RESPONSE_CAP = 16_384
TEXT_CAP = 4_096
CAPPED_TEXT = ("category", "confidence", "rationale", "failure_reason", "finish_reason",
               "response_model", "endpoint")


@dataclass(frozen=True)
class Paper:
    paper_id: str
    title: str | None
    abstract: str | None
    primary_area: str | None


def ensure_tables(con: duckdb.DuckDBPyConnection) -> None:
    con.execute(RESPONSES_DDL)


def pending_papers(con: duckdb.DuckDBPyConnection, taxonomy: str, model: str, prompt_hash: str,
                   venue: str | None = None, skip_failed: bool = False,
                   skip_areas: Sequence[str] = ()) -> list[Paper]:
    """Accepted papers with no answer and no label yet for this taxonomy, model and prompt
    (optionally not of the given primary areas, compared case-insensitively)."""
    failed_clause = (
        """and not exists (
            select 1 from raw.llm_responses f
            where f.paper_id = p.paper_id and f.taxonomy = $taxonomy and f.model = $model
              and f.prompt_hash = $prompt_hash and f.status = 'failed')"""
        if skip_failed else ""
    )
    rows = con.execute(
        f"""
        select p.paper_id, p.title, p.abstract, p.primary_area
        from raw.papers as p
        where p.is_accepted
          and ($venue is null or p.venue = $venue)
          and not list_contains($skip_areas, lower(trim(coalesce(p.primary_area, ''))))
          and not exists (
            select 1 from raw.llm_responses as r
            where r.paper_id = p.paper_id and r.taxonomy = $taxonomy and r.model = $model
              and r.prompt_hash = $prompt_hash and r.status = 'ok')
          and not exists (
            select 1 from raw.paper_labels as l
            where l.paper_id = p.paper_id and l.taxonomy = $taxonomy and l.model = $model
              and l.prompt_hash is not distinct from $prompt_hash)
          {failed_clause}
        order by p.paper_id
        """,
        {"taxonomy": taxonomy, "model": model, "prompt_hash": prompt_hash, "venue": venue,
         "skip_areas": [a.strip().lower() for a in skip_areas]},
    ).fetchall()
    return [Paper(*row) for row in rows]


def failed_papers(con: duckdb.DuckDBPyConnection, taxonomy: str, model: str,
                  prompt_hash: str) -> list[Paper]:
    """Papers given up for this taxonomy, model and prompt by an earlier run (what
    --skip-failed leaves out)."""
    rows = con.execute(
        """
        select distinct p.paper_id, p.title, p.abstract, p.primary_area
        from raw.papers as p
        inner join raw.llm_responses as f
            on f.paper_id = p.paper_id and f.taxonomy = $taxonomy and f.model = $model
           and f.prompt_hash = $prompt_hash and f.status = 'failed'
        order by p.paper_id
        """, {"taxonomy": taxonomy, "model": model, "prompt_hash": prompt_hash}).fetchall()
    return [Paper(*row) for row in rows]


_STOP = object()
MAX_ROWS_PER_WRITE = 64


class ResponseStore:
    """Writes each answer as soon as it arrives, on a writer thread that owns a cursor of the
    one warehouse connection: writes are serialized, committed one small transaction at a time,
    and answers that arrive while a write is in progress are committed together with the next
    one (group commit), so neither the event loop nor throughput waits on the disk."""

    def __init__(self, con: duckdb.DuckDBPyConnection, *, run_id: str | None = None) -> None:
        self.con = con
        self.run_id = run_id or uuid.uuid4().hex
        ensure_tables(con)
        self._queue: queue.Queue[Any] = queue.Queue()
        self._error: BaseException | None = None
        self._cursor = con.cursor()
        self._closed = False
        self._thread = threading.Thread(target=self._writer, name="llm-responses-writer",
                                        daemon=True)
        self._thread.start()

    def record(self, row: dict[str, Any]) -> None:
        if self._error is not None:
            raise RuntimeError(f"writing raw.llm_responses failed: {self._error}")
        if self._closed:
            raise RuntimeError("the response store is closed")
        values = dict(row)
        values.setdefault("response_id", uuid.uuid4().hex)
        values.setdefault("run_id", self.run_id)
        values.setdefault("received_at", datetime.now(UTC))
        if values.get("status") not in STATUSES:
            raise PaperrankError(f"unknown response status {str(values.get('status'))[:80]!r} "
                                 f"(one of {', '.join(STATUSES)})")
        _cap(values)
        self._queue.put([values.get(c) for c in RESPONSE_COLUMNS])

    def _writer(self) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            batch, stop = [item], False
            while len(batch) < MAX_ROWS_PER_WRITE:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is _STOP:
                    stop = True
                    break
                batch.append(item)
            try:
                self._insert(batch)
            except Exception as error:  # noqa: BLE001 - surfaced by record() and close()
                self._error = error
                return
            if stop:
                return

    def _insert(self, rows: list[list[Any]]) -> None:
        one = f"({', '.join('?' for _ in RESPONSE_COLUMNS)})"
        self._cursor.execute(
            f"insert into raw.llm_responses ({', '.join(RESPONSE_COLUMNS)}) "
            f"values {', '.join([one] * len(rows))}",
            [value for row in rows for value in row],
        )

    def close(self) -> None:
        """Write everything still queued, then stop the writer (idempotent)."""
        if not self._closed:
            self._closed = True
            self._queue.put(_STOP)
            self._thread.join()
            self._cursor.close()
        if self._error is not None:
            raise OSError(f"writing raw.llm_responses failed: {self._error}")


def _cap(values: dict[str, Any]) -> None:
    """Truncate the stored texts in place; the raw answer's full length and hash are kept."""
    raw = values.get("raw_response")
    if isinstance(raw, str):
        values["raw_response_chars"] = len(raw)
        values["raw_response_sha256"] = hashlib.sha256(
            raw.encode("utf-8", "surrogatepass")).hexdigest()
        values["raw_response"] = _truncate(raw, RAW_RESPONSE_CAP)
    for column in CAPPED_TEXT:
        if isinstance(values.get(column), str):
            values[column] = _truncate(values[column], TEXT_CAP)


def _truncate(text: str, cap: int) -> str:
    if len(text) <= cap:
        return text
    return text[:cap] + f"... [truncated: {len(text)} characters in all]"


def materialize_labels(con: duckdb.DuckDBPyConnection, taxonomy: str | None = None) -> int:
    """Copy the latest valid answer per (paper, taxonomy, model, prompt) that has no label yet
    into `raw.paper_labels` through the warehouse contract; returns the labels written."""
    ensure_tables(con)
    rows = con.execute(
        """
        with ok as (
            select *, row_number() over (
                partition by paper_id, taxonomy, model, prompt_hash
                order by received_at desc, response_id) as rn
            from raw.llm_responses
            where status = 'ok' and ($taxonomy is null or taxonomy = $taxonomy)
        )
        select paper_id, taxonomy, category, confidence, rationale, model, prompt_hash,
               backend, received_at
        from ok
        where rn = 1 and not exists (
            select 1 from raw.paper_labels as l
            where l.paper_id = ok.paper_id and l.taxonomy = ok.taxonomy and l.model = ok.model
              and l.prompt_hash = ok.prompt_hash)
        order by backend, paper_id
        """,
        {"taxonomy": taxonomy},
    ).fetchall()
    if not rows:
        return 0
    written = 0
    by_source: dict[str, list[dict[str, Any]]] = {}
    for paper_id, tax, category, confidence, rationale, model, phash, backend, at in rows:
        by_source.setdefault(f"classify:{backend}", []).append({
            "paper_id": paper_id, "taxonomy": tax, "category": category,
            "confidence": confidence, "rationale": rationale, "model": model,
            "prompt_hash": phash, "source": f"classify:{backend}", "labeled_at": at,
        })
    for source, labels in by_source.items():
        batch = Batch(kind="classify", source=source, snapshot_at=datetime.now(UTC),
                      records_read=len(labels), labels=labels)
        written += write_batch(con, batch).labels_loaded
    return written
