"""The raw layer: the one contract between the Python loaders and dbt.

Every loader (paperlists files, OpenReview notes, label imports, the LLM classifier)
writes through this module so that the `raw` schema has one shape, one idempotency rule
and one place where rejected records are kept.  dbt only ever reads these tables as sources.

Rules enforced here:
- a record is either loaded or lands in `raw.rejected_records` with a reason;
- loading the same input twice changes nothing (rows are compared by content hash);
- a newer snapshot of a paper replaces its current rows, an older one never does, and
  every snapshot's review scores stay queryable in `raw.review_history`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import duckdb

from paperrank.core.disk import one_line_when_full
from paperrank.core.schema import LABEL_COLUMNS, PAPER_COLUMNS, REVIEW_COLUMNS

if TYPE_CHECKING:  # pandas is imported where a batch is written: dbt's start-up reads this
    import pandas as pd  # module (through the warehouse's lock message) and would pay for nothing

PAYLOAD_LIMIT = 4000  # characters of a rejected record kept for a person to read


@dataclass(frozen=True)
class Rejection:
    """One input record that could not be loaded, with a reason a person understands."""

    record_key: str
    reason: str
    payload: Any = None

    def payload_text(self) -> str | None:
        """Render the payload as bounded text so one huge field cannot bloat the warehouse."""
        if self.payload is None:
            return None
        if isinstance(self.payload, bytes):
            text = self.payload.decode("utf-8", errors="replace")
        elif isinstance(self.payload, str):
            text = self.payload
        else:
            text = json.dumps(self.payload, default=str, ensure_ascii=False)
        text = storable(text)
        if len(text) > PAYLOAD_LIMIT:
            text = text[:PAYLOAD_LIMIT] + f"... [truncated, {len(text)} characters]"
        return text

    @property
    def kind(self) -> str:
        """The reason's short kind (its text before the first colon), kept beside the reason
        in raw.rejected_records so summaries and dbt group by the same value."""
        return self.reason.split(":", 1)[0].strip()


def storable(text: str) -> str:
    """Text DuckDB can store: lone surrogates escaped, NUL removed (a rejected record's copy
    must never fail the load it is rejected from)."""
    return text.encode("utf-8", errors="backslashreplace").decode("utf-8").replace("\x00", "")


@dataclass
class Batch:
    """Everything one load read from one input, ready to be written in one transaction."""

    kind: str
    source: str
    snapshot_at: datetime
    records_read: int = 0
    papers: list[dict[str, Any]] = field(default_factory=list)
    reviews: list[dict[str, Any]] = field(default_factory=list)
    labels: list[dict[str, Any]] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)

    def reject(self, record_key: str, reason: str, payload: Any = None) -> None:
        self.rejected.append(Rejection(record_key, reason, payload))


@dataclass
class LoadSummary:
    """What a load did; printed by every command and kept in `raw.loads`.

    `*_loaded` counts the valid rows of the input (all present in the warehouse afterwards);
    `*_changed`/`labels_added` counts the rows that this load actually wrote, which is 0 when
    the same input is loaded again.
    """

    load_id: str
    source: str
    records_read: int
    papers_loaded: int
    papers_changed: int
    reviews_loaded: int
    reviews_changed: int
    labels_loaded: int
    labels_added: int
    rejected_by_reason: dict[str, int]

    @property
    def records_rejected(self) -> int:
        return sum(self.rejected_by_reason.values())

    def render(self) -> str:
        lines = [
            f"source: {self.source}",
            f"records read: {self.records_read}",
            f"papers loaded: {self.papers_loaded} ({self.papers_changed} new or changed)",
            f"reviews loaded: {self.reviews_loaded} ({self.reviews_changed} new or changed)",
            f"labels loaded: {self.labels_loaded} ({self.labels_added} new)",
            f"records rejected: {self.records_rejected}",
        ]
        for reason, count in sorted(self.rejected_by_reason.items(), key=lambda kv: -kv[1]):
            lines.append(f"  {count:>6}  {reason}")
        return "\n".join(lines)


def _hash_rows(frame: pd.DataFrame, columns: Sequence[str]) -> pd.Series:
    import pandas as pd

    def one(row: Sequence[Any]) -> str:
        text = json.dumps([_jsonable(v) for v in row], default=str, ensure_ascii=False)
        return hashlib.sha1(text.encode("utf-8")).hexdigest()

    return pd.Series(
        [one(row) for row in frame[list(columns)].itertuples(index=False, name=None)],
        index=frame.index,
        dtype="object",
    )


def _jsonable(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, float) and value != value:  # NaN
        return None
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "tolist"):
        return _jsonable(value.tolist())
    return value


def _frame(rows: Iterable[dict[str, Any]], columns: Sequence[str]) -> pd.DataFrame:
    import pandas as pd

    frame = pd.DataFrame(list(rows), columns=list(columns))
    return frame.astype(object).where(frame.notna(), None) if len(frame) else frame


def write_batch(con: duckdb.DuckDBPyConnection, batch: Batch) -> LoadSummary:
    """Write a batch in one transaction and return what it changed.

    Papers and reviews are current-state tables: a paper's rows are replaced only by a
    snapshot at least as new as the one already loaded, and only when their content changed,
    so reloading the same input is a no-op.  Review scores of every snapshot are also appended
    to `raw.review_history` once per (review, snapshot).
    """
    load_id = uuid.uuid4().hex
    now = datetime.now(UTC)
    snapshot = batch.snapshot_at if batch.snapshot_at.tzinfo else batch.snapshot_at.replace(tzinfo=UTC)
    path = con.execute("select path from duckdb_databases() where database_name = current_database()").fetchall()[0][0]
    con.execute("begin transaction")
    with one_line_when_full(path, f"loading {batch.source} into the raw layer",
                            "nothing of it was loaded"):
        try:
            papers_changed = _write_papers(con, batch, snapshot, now)
            reviews_changed = _write_reviews(con, batch, snapshot, now)
            labels_added = _write_labels(con, batch, now)
            _write_rejections(con, batch, load_id, now)
            finished = datetime.now(UTC)
            con.execute(
                "insert into raw.loads values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    load_id, batch.kind, batch.source, snapshot, now, finished, batch.records_read,
                    len(batch.papers), papers_changed, len(batch.reviews), reviews_changed,
                    len(batch.labels), labels_added, len(batch.rejected),
                ],
            )
            con.execute("commit")
        except Exception:
            _roll_back(con)
            raise
    by_reason: dict[str, int] = {}
    for rejection in batch.rejected:
        by_reason[rejection.kind] = by_reason.get(rejection.kind, 0) + 1
    return LoadSummary(
        load_id, batch.source, batch.records_read, len(batch.papers), papers_changed,
        len(batch.reviews), reviews_changed, len(batch.labels), labels_added, by_reason,
    )


def _roll_back(con: duckdb.DuckDBPyConnection) -> None:
    """Roll the batch's transaction back, if it is still open: a commit the disk refused has
    ended it already, and the error that stopped the batch is the one to report."""
    with contextlib.suppress(duckdb.Error):
        con.execute("rollback")


def _write_papers(con: duckdb.DuckDBPyConnection, batch: Batch, snapshot: datetime,
                  now: datetime) -> int:
    if not batch.papers:
        return 0
    frame = _frame(batch.papers, PAPER_COLUMNS[:-2])
    frame["source"] = batch.source
    frame["snapshot_at"] = snapshot
    frame["record_hash"] = _hash_rows(frame, PAPER_COLUMNS[:-2])
    frame["loaded_at"] = now
    con.register("incoming_papers", frame)
    try:
        # Papers whose incoming row is new or changed and not older than the current one.
        con.execute(
            """
            create or replace temp table changed_papers as
            select i.paper_id
            from incoming_papers as i
            left join raw.papers as p on p.paper_id = i.paper_id
            where p.paper_id is null
               or (p.record_hash <> i.record_hash and p.snapshot_at <= i.snapshot_at)
            """
        )
        con.execute("delete from raw.papers where paper_id in (select paper_id from changed_papers)")
        con.execute(
            f"""
            insert into raw.papers ({", ".join(PAPER_COLUMNS)}, record_hash, loaded_at)
            select {", ".join(PAPER_COLUMNS)}, record_hash, loaded_at
            from incoming_papers
            where paper_id in (select paper_id from changed_papers)
            """
        )
        return con.execute("select count(*) from changed_papers").fetchall()[0][0]
    finally:
        con.unregister("incoming_papers")


def _write_reviews(con: duckdb.DuckDBPyConnection, batch: Batch, snapshot: datetime,
                   now: datetime) -> int:
    """Replace the current reviews of every paper in the batch that is not older than what
    is loaded, and append each review's scores to the history once per snapshot."""
    paper_ids = {p["paper_id"] for p in batch.papers} | {r["paper_id"] for r in batch.reviews}
    if not paper_ids:
        return 0
    frame = _frame(batch.reviews, REVIEW_COLUMNS[:-2])
    frame["source"] = batch.source
    frame["snapshot_at"] = snapshot
    frame["record_hash"] = _hash_rows(frame, REVIEW_COLUMNS[:-2])
    frame["loaded_at"] = now
    import pandas as pd

    scope = pd.DataFrame({"paper_id": sorted(paper_ids)})
    con.register("incoming_reviews", frame)
    con.register("incoming_scope", scope)
    try:
        con.execute(
            """
            create or replace temp table review_scope as
            select s.paper_id
            from incoming_scope as s
            where not exists (
                select 1 from raw.reviews as r
                where r.paper_id = s.paper_id and r.snapshot_at > ?
            )
            """,
            [snapshot],
        )
        con.execute(
            """
            create or replace temp table changed_review_papers as
            with current_set as (
                select paper_id, string_agg(record_hash, ',' order by record_hash) as hashes
                from raw.reviews
                where paper_id in (select paper_id from review_scope)
                group by paper_id
            ),
            incoming_set as (
                select paper_id, string_agg(record_hash, ',' order by record_hash) as hashes
                from incoming_reviews
                group by paper_id
            )
            select s.paper_id
            from review_scope as s
            left join current_set as c on c.paper_id = s.paper_id
            left join incoming_set as i on i.paper_id = s.paper_id
            where c.hashes is distinct from i.hashes
            """
        )
        con.execute(
            "delete from raw.reviews where paper_id in (select paper_id from changed_review_papers)"
        )
        con.execute(
            f"""
            insert into raw.reviews
            select {", ".join(REVIEW_COLUMNS)}, record_hash, loaded_at
            from incoming_reviews
            where paper_id in (select paper_id from changed_review_papers)
            """
        )
        con.execute(
            f"""
            insert into raw.review_history
            select {", ".join(f"i.{c}" for c in REVIEW_COLUMNS)}, i.record_hash, i.loaded_at
            from incoming_reviews as i
            where not exists (
                select 1 from raw.review_history as h
                where h.review_id = i.review_id and h.snapshot_at = i.snapshot_at
            )
            """
        )
        return con.execute(
            "select count(*) from incoming_reviews "
            "where paper_id in (select paper_id from changed_review_papers)"
        ).fetchall()[0][0]
    finally:
        con.unregister("incoming_reviews")
        con.unregister("incoming_scope")


def _write_labels(con: duckdb.DuckDBPyConnection, batch: Batch, now: datetime) -> int:
    """Append labels; an identical label (same paper, taxonomy, model, prompt, answer and
    time) is never stored twice, so re-importing a file is a no-op."""
    if not batch.labels:
        return 0
    import pandas as pd

    frame = _frame(batch.labels, LABEL_COLUMNS)
    frame["labeled_at"] = pd.to_datetime(frame["labeled_at"], utc=True)
    frame["record_hash"] = _hash_rows(frame, LABEL_COLUMNS)
    frame["loaded_at"] = now
    con.register("incoming_labels", frame)
    try:
        new = con.execute(
            """
            select count(*) from incoming_labels as i
            where not exists (
                select 1 from raw.paper_labels as l where l.record_hash = i.record_hash
            )
            """
        ).fetchall()[0][0]
        con.execute(
            f"""
            insert into raw.paper_labels
            select {", ".join(f"i.{c}" for c in LABEL_COLUMNS)}, i.record_hash, i.loaded_at
            from incoming_labels as i
            where not exists (
                select 1 from raw.paper_labels as l where l.record_hash = i.record_hash
            )
            """
        )
        return new
    finally:
        con.unregister("incoming_labels")


def _write_rejections(con: duckdb.DuckDBPyConnection, batch: Batch, load_id: str,
                      now: datetime) -> None:
    """Keep every rejection once per (source, record, reason), so reloading the same bad
    input does not pile up copies while a new problem with the same record still shows."""
    if not batch.rejected:
        return
    import pandas as pd

    frame = pd.DataFrame(
        {
            "load_id": load_id,
            "source": batch.source,
            "record_key": [storable(r.record_key) for r in batch.rejected],
            "reason": [storable(r.reason) for r in batch.rejected],
            "reason_kind": [storable(r.kind) for r in batch.rejected],
            "payload": [r.payload_text() for r in batch.rejected],
            "rejected_at": now,
        }
    ).drop_duplicates(subset=["record_key", "reason"])
    con.register("incoming_rejections", frame)
    try:
        con.execute(
            """
            insert into raw.rejected_records
                (load_id, source, record_key, reason, reason_kind, payload, rejected_at)
            select i.load_id, i.source, i.record_key, i.reason, i.reason_kind, i.payload,
                   i.rejected_at
            from incoming_rejections as i
            where not exists (
                select 1 from raw.rejected_records as r
                where r.source = i.source and r.record_key = i.record_key
                  and r.reason = i.reason
            )
            """
        )
    finally:
        con.unregister("incoming_rejections")
