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
import re
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb

from paperrank.core import config
from paperrank.core.disk import duckdb_write_error
from paperrank.core.errors import PaperrankError, WarehouseLocked
from paperrank.core.seeds import review_score_columns
from paperrank.related.store import DDL as DERIVED_DDL

if TYPE_CHECKING:  # pandas is imported where a batch is written: dbt's start-up reads this
    import pandas as pd  # module (the lock's message) and would pay pandas' import for nothing

PAYLOAD_LIMIT = 4000  # characters of a rejected record kept for a person to read


PAPER_COLUMNS = (
    "paper_id", "venue", "title", "abstract", "primary_area", "keywords", "authors", "status",
    "is_accepted", "forum_url", "pdf_url", "decision_tier", "citations", "citations_source",
    "source", "snapshot_at",
)
# the per-review scores every loader fills: the dbt var review_score_columns (dbt_project.yml)
SIGNALS = review_score_columns()
REVIEW_COLUMNS = ("paper_id", "review_id", "reviewer", *SIGNALS, "source", "snapshot_at")
LABEL_COLUMNS = (
    "paper_id", "taxonomy", "category", "confidence", "rationale", "model", "prompt_hash",
    "source", "labeled_at",
)

# Current reviews and their history share one shape, so a score column is added in one place.
REVIEW_TABLE = """
    paper_id varchar not null,
    review_id varchar not null,
    reviewer varchar,
    rating double,
    confidence double,
    soundness double,
    contribution double,
    presentation double,
    source varchar not null,
    snapshot_at timestamptz not null,
    record_hash varchar not null,
    loaded_at timestamptz not null
"""

DDL = f"""
create schema if not exists raw;
create table if not exists raw.papers (
    paper_id varchar not null,
    venue varchar not null,
    title varchar,
    abstract varchar,
    primary_area varchar,
    keywords varchar[],
    authors varchar,  -- author names, '; '-joined, in the paper's order
    status varchar,
    is_accepted boolean not null,
    forum_url varchar,
    pdf_url varchar,
    decision_tier varchar,  -- paperrank.ingest.status.decision_tier of the status
    citations bigint,  -- an outcome, when the input has one (paperlists' gs_citation)
    citations_source varchar,  -- where the citation count comes from
    source varchar not null,
    snapshot_at timestamptz not null,
    record_hash varchar not null,
    loaded_at timestamptz not null
);
create table if not exists raw.reviews ({REVIEW_TABLE});
create table if not exists raw.review_history ({REVIEW_TABLE});
create table if not exists raw.paper_labels (
    paper_id varchar not null,
    taxonomy varchar not null,
    category varchar not null,
    confidence varchar,
    rationale varchar,
    model varchar not null,
    prompt_hash varchar,
    source varchar not null,
    labeled_at timestamptz not null,
    record_hash varchar not null,
    loaded_at timestamptz not null
);
create table if not exists raw.rejected_records (
    load_id varchar not null,
    source varchar not null,
    record_key varchar not null,
    reason varchar not null,
    reason_kind varchar not null,
    payload varchar,
    rejected_at timestamptz not null
);
create table if not exists raw.loads (
    load_id varchar not null,
    kind varchar not null,
    source varchar not null,
    snapshot_at timestamptz,
    started_at timestamptz not null,
    finished_at timestamptz not null,
    records_read bigint not null,
    papers_loaded bigint not null,
    papers_changed bigint not null,
    reviews_loaded bigint not null,
    reviews_changed bigint not null,
    labels_loaded bigint not null,
    labels_added bigint not null,
    records_rejected bigint not null
);
-- warehouses made before authors and reason_kind were part of the contract
alter table raw.papers add column if not exists authors varchar;
alter table raw.rejected_records add column if not exists reason_kind varchar;
-- ... and before the decision tier and the citation counts were
alter table raw.papers add column if not exists decision_tier varchar;
alter table raw.papers add column if not exists citations bigint;
alter table raw.papers add column if not exists citations_source varchar;
"""


def db_path() -> Path:
    """The warehouse file: `PAPERRANK_DB` if set, so scripts and dbt always agree."""
    return config.working_db()


def connect(path: Path | str | None = None, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """Open the warehouse (creating its folder and the raw schema when writable).

    DuckDB allows one writer per file, so callers keep the connection only as long as
    they load; dbt cannot run while it is open.  A file held by another process raises
    `WarehouseLocked` with one line naming that process (see `open_duckdb`).
    """
    target = Path(path) if path is not None else db_path()
    if read_only:
        if not target.exists():
            raise PaperrankError(f"warehouse {target} does not exist; load data first")
        return open_duckdb(target, read_only=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        con = open_duckdb(target)
    except duckdb.Error as error:
        refused = duckdb_write_error(error, target, "opening the working warehouse", "nothing was loaded")
        if refused is None:
            raise
        raise refused from None
    try:
        con.execute(DDL)
        # the derived schema too (empty until paperrank related runs), so dbt's `derived` sources
        # exist in every warehouse a loader wrote
        con.execute(DERIVED_DDL)
        _fill_reason_kinds(con)
    except duckdb.Error as error:
        con.close()
        refused = duckdb_write_error(error, target, "creating the raw layer's tables",
                                     "nothing was loaded")
        if refused is None:
            raise
        raise refused from None
    return con


def _fill_reason_kinds(con: duckdb.DuckDBPyConnection) -> None:
    """Give rejections stored before reason_kind existed their kind (by Rejection.kind)."""
    reasons = con.execute(
        "select distinct reason from raw.rejected_records where reason_kind is null").fetchall()
    for (reason,) in reasons:
        con.execute("update raw.rejected_records set reason_kind = ? where reason = ?",
                    [Rejection("", reason).kind, reason])


_LOCK_FILE = re.compile(r'Could not set lock on file "(?P<file>[^"]+)"')
_LOCK_HOLDER = re.compile(r"Conflicting lock is held in (?P<program>.+?)(?: \(PID (?P<pid>\d+)\))?"
                          r"(?: by user \S+)?\.(?:\s|$)")


def one_row(con: duckdb.DuckDBPyConnection, sql: str) -> tuple[Any, ...]:
    """The one row an aggregate query returns (DuckDB types `fetchone()` as optional)."""
    row = con.execute(sql).fetchone()
    if row is None:
        raise RuntimeError(f"no row from: {sql}")
    return row


def open_duckdb(path: Path | str, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """`duckdb.connect`, with a lock held by another process turned into `WarehouseLocked`.

    This is the one place Python opens a warehouse file, so every loader, the classifier and
    the quality gate say the same thing about a lock; pipeline code that opens DuckDB files
    (a published copy, say) should call it too.
    """
    try:
        return duckdb.connect(str(path), read_only=read_only)
    except duckdb.IOException as error:
        locked = lock_error(path, error)
        if locked is None:
            raise
        raise locked from None


def lock_error(path: Path | str | None, error: BaseException | str) -> WarehouseLocked | None:
    """The one-line `WarehouseLocked` for a DuckDB lock conflict, or None for other errors.

    DuckDB names the holder's PID deep inside a long message; this is the one sentence every
    command (loaders, classifier, dbt wrappers, export) prints instead: which file, which
    process (its command line when /proc shows it) and what to do. `path` may be None when
    only the error text is known (dbt's); the file is then read off the message.
    """
    text = str(error)
    if "Could not set lock" not in text and "Conflicting lock" not in text:
        return None
    if path is None:
        named = _LOCK_FILE.search(text)
        path = named.group("file") if named else "the warehouse"
    found = _LOCK_HOLDER.search(text)
    if found and found.group("pid"):
        pid = found.group("pid")
        holder = f"process {pid} ({_command_line(pid, found.group('program'))})"
        action = f"wait for it to finish or stop it (kill {pid})"
    elif found:
        holder, action = f"another process ({found.group('program')})", "wait for it to finish or stop it"
    else:
        holder, action = "another process", "wait for it to finish or stop it"
    return WarehouseLocked(
        f"warehouse {path} is in use by {holder}; {action}, then run this again "
        "(DuckDB allows one writer, and a writer excludes readers)"
    )


def _command_line(pid: str, program: str) -> str:
    """The holder's command line when /proc shows it, else the program DuckDB names."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return program
    words = [w.decode(errors="replace") for w in raw.split(b"\0") if w]
    text = " ".join(" ".join(words).split()) or program  # one line, whatever the arguments hold
    return text if len(text) <= 120 else text[:117] + "..."


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
    path = one_row(con, "select path from duckdb_databases() where database_name = current_database()")[0]
    con.execute("begin transaction")
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
    except Exception as error:
        _roll_back(con)
        refused = duckdb_write_error(error, path, f"loading {batch.source} into the raw layer",
                                     "nothing of it was loaded")
        if refused is None:
            raise
        raise refused from None
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
