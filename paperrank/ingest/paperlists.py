"""Load a paperlists-style file: one record per paper with per-reviewer score lists.

This is the layout of public dumps such as `accepted_papers.parquet` (ICLR 2026): the i-th
element of `rating`, `confidence`, `soundness`, `contribution` and `presentation` is the i-th
reviewer's score. Such dumps carry no review ids, so a stable one is derived from the paper id
and the reviewer's position. JSON versions sometimes hold the lists as `;`-joined strings.
Whether a paper was accepted follows `paperrank.ingest.status`, the rule the notes loader applies too.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from paperrank.core import venue_name as venue_names
from paperrank.core.errors import PaperrankError
from paperrank.core.loads import Batch, Rejection, write_batch
from paperrank.core.schema import SIGNALS
from paperrank.core.warehouse import connect
from paperrank.ingest.fields import BadField, clean_text, clean_url, join_authors
from paperrank.ingest.loaded import finish_load
from paperrank.ingest.profiles import BadScore, Profile, check_form_signals, parse_score, resolve_profile
from paperrank.ingest.records import read_records
from paperrank.ingest.status import StatusCount, decision_tier

ID_FIELDS = ("paper_id", "openreview_id", "id")
AUTHOR_FIELDS = ("authors", "author")  # a list, or paperlists' `;`-joined string
CITATION_FIELD = "gs_citation"  # paperlists' Google Scholar count; -1 = not found
CITATION_SOURCE = ("Google Scholar citation count as crawled by the paperlists project "
                   "(field gs_citation; crawl date not recorded)")


def load(path: Path, venue: str, profile_name: str | None = None,
         snapshot_at: datetime | None = None) -> None:
    """Read, check and write one paperlists file; print its summary."""
    venue_names.check(venue, "--venue")
    profile = resolve_profile(venue, profile_name)
    for signal in profile.missing_signals():
        print(f"warning: the {profile.name} review form has no {signal}; it stays empty")
    if not path.exists():
        raise PaperrankError(f"{path}: no such file")
    snapshot_at = snapshot_at or datetime.fromtimestamp(path.stat().st_mtime, UTC)
    statuses = StatusCount()
    batch = read_paperlists(path, venue, profile, snapshot_at, statuses)
    if statuses.warning():
        print(f"warning: {statuses.warning()}", file=sys.stderr)
    con = connect()
    try:
        summary = write_batch(con, batch)
    finally:
        con.close()
    finish_load(summary)


def read_paperlists(path: Path, venue: str, profile: Profile, snapshot_at: datetime,
                    statuses: StatusCount | None = None) -> Batch:
    """Turn a paperlists file into a Batch: papers, their reviews, and every rejection.

    `statuses` counts the papers taken as accepted for lack of a status (see paperrank.ingest.status).
    """
    statuses = statuses if statuses is not None else StatusCount()
    batch = Batch(kind="paperlists", source=str(path.resolve()), snapshot_at=snapshot_at)
    file = _FileState(statuses)
    for location, record in read_records(path):
        batch.records_read += 1
        if isinstance(record, Rejection):
            batch.rejected.append(record)
            continue
        try:
            _read_paper(batch, location, record, venue, profile, file)
        except BadField as error:
            batch.reject(_record_key(record, location), str(error), record)
    # A signal column no record has is the file's problem, not each record's: fail the load.
    never = {s for _, _, _, absent in file.lacking for s in absent} - file.present
    if never:
        batch.reviews.clear()  # so the check below names the missing signal
        check_form_signals(profile, batch, venue, expected=len(file.lacking))
    for key, reason, record, _ in file.lacking:
        batch.reject(key, reason, record)
    check_form_signals(profile, batch, venue)
    return batch


@dataclass
class _FileState:
    """What reading one file has seen so far beyond the batch itself."""

    statuses: StatusCount
    seen: set[str] = field(default_factory=set)  # paper ids
    present: set[str] = field(default_factory=set)  # signals some record has a list for
    lacking: list[tuple[str, str, dict[str, Any], set[str]]] = field(default_factory=list)


def _record_key(record: dict[str, Any], location: str) -> str:
    raw_id = next((record[f] for f in ID_FIELDS if record.get(f) not in (None, "")), None)
    if isinstance(raw_id, (str, int)) and not isinstance(raw_id, bool):
        try:
            return f"paper {clean_text(str(raw_id), location, 'paper_id')}"
        except BadField:
            pass
    return location


def _text(value: Any, where: str, field: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return clean_text(value, where, field)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise TypeError(type(value).__name__)


def _list(value: Any) -> list[Any] | None:
    """A score or keyword list from a list, an array, or a `;`-joined string."""
    if value is None:
        return None
    if isinstance(value, str):
        return [part.strip() for part in value.split(";")] if value.strip() else []
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


def _citations(value: Any) -> int | None | bool:
    """A citation count: a whole number >= 0; -1 (not found), null or "" are None (unknown,
    never 0); False for anything else, which rejects the record."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if hasattr(value, "item") and not isinstance(value, (list, tuple)):
        value = value.item()  # numpy scalars from parquet
    if isinstance(value, bool):
        return False
    if isinstance(value, float) and value != value:  # NaN: a null in a float column
        return None
    if isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            return False
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or value < -1:
        return False
    return None if value == -1 else value


def _read_paper(batch: Batch, location: str, record: dict[str, Any], venue: str,
                profile: Profile, file: _FileState) -> None:
    raw_id = next((record[f] for f in ID_FIELDS if record.get(f) not in (None, "")), None)
    if raw_id is None:
        batch.reject(location, f"missing id: {location} has none of {', '.join(ID_FIELDS)}",
                     record)
        return
    if not isinstance(raw_id, (str, int)) or isinstance(raw_id, bool):
        batch.reject(location, f"wrong type: {location} id is a {type(raw_id).__name__}", record)
        return
    paper_id = clean_text(str(raw_id), location, "paper_id")
    if paper_id is None:
        batch.reject(location, f"missing id: {location} has a blank id", record)
        return
    key = f"paper {paper_id}"
    if paper_id in file.seen:
        batch.reject(key, f"duplicate paper: {key} appears again at {location}", record)
        return
    try:
        title = _text(record.get("title"), key, "title")
        abstract = _text(record.get("abstract"), key, "abstract")
        primary_area = _text(record.get("primary_area"), key, "primary_area")
        status = _text(record.get("status"), key, "status")
        forum_url = _text(record.get("site") or record.get("forum_url"), key, "forum_url")
        pdf_url = _text(record.get("pdf_link") or record.get("pdf_url"), key, "pdf_url")
    except TypeError as error:
        batch.reject(key, f"wrong type: {key} has a text field holding a {error}", record)
        return
    if not title:
        batch.reject(key, f"missing field: {key} has no title", record)
        return
    keywords = _list(record.get("keywords"))
    if keywords is not None and not all(isinstance(k, str) for k in keywords):
        batch.reject(key, f"wrong type: {key} field keywords is not a list of text", record)
        return
    authors = _list(next((record[f] for f in AUTHOR_FIELDS if record.get(f) is not None), None))
    if authors is not None and not all(isinstance(a, str) for a in authors):
        batch.reject(key, f"wrong type: {key} field authors is not a list of text", record)
        return
    if CITATION_FIELD in record:
        citations = _citations(record[CITATION_FIELD])
        if citations is False:
            batch.reject(key, f"wrong type: {key} field {CITATION_FIELD} is not a whole number "
                              f">= -1: {str(record[CITATION_FIELD])[:40]!r}", record)
            return
    else:
        citations = None
    columns = {}
    for signal in SIGNALS:
        spec = profile.fields.get(signal)
        field = spec.form_field if spec and spec.form_field else signal
        values = _list(record.get(field))
        if values is not None:
            columns[signal] = values
    lengths = {signal: len(values) for signal, values in columns.items()}
    if len(set(lengths.values())) > 1:
        detail = ", ".join(f"{n} {s}" for s, n in lengths.items())
        batch.reject(key, f"mismatched score lists: {key} has {detail}", record)
        return
    file.present |= set(columns)
    absent = {s: spec.form_field for s, spec in profile.fields.items()
              if spec.form_field and s not in columns}
    if absent and any(lengths.values()):
        names = ", ".join(f"{s} ({form_field})" for s, form_field in absent.items())
        file.lacking.append((key, f"missing field: {key} has reviews but no {names}, which "
                                  f"the {profile.name} form has", record, set(absent)))
        return
    file.seen.add(paper_id)
    status, accepted = file.statuses.settle(status)
    batch.papers.append({
        "paper_id": paper_id,
        "venue": venue,
        "title": title,
        "abstract": abstract,
        "primary_area": primary_area,
        "keywords": [k for k in (clean_text(k, key, "keywords", "keyword") for k in keywords)
                     if k] if keywords else [],
        "authors": join_authors(authors, key) if authors else None,
        "status": status,
        "is_accepted": accepted,
        "forum_url": clean_url(forum_url, key, "forum_url"),
        "pdf_url": clean_url(pdf_url, key, "pdf_url"),
        "decision_tier": decision_tier(status, accepted),
        "citations": citations,
        "citations_source": CITATION_SOURCE if CITATION_FIELD in record else None,
    })
    for position in range(max(lengths.values(), default=0)):
        _read_review(batch, paper_id, position, columns, profile)


def _read_review(batch: Batch, paper_id: str, position: int, columns: dict[str, list[Any]],
                 profile: Profile) -> None:
    review_id = f"{paper_id}#r{position + 1}"
    review: dict[str, Any] = {
        "paper_id": paper_id,
        "review_id": review_id,
        "reviewer": f"Reviewer {position + 1}",
    }
    for signal in SIGNALS:
        spec = profile.fields.get(signal)
        if signal not in columns or spec is None or not spec.form_field:
            review[signal] = None
            continue
        value = columns[signal][position]
        try:
            review[signal] = parse_score(value, spec)
        except BadScore as error:
            batch.reject(f"review {review_id}",
                         f"{error.kind}: review {review_id} field {signal}: {error}",
                         {signal: value, "paper_id": paper_id, "position": position + 1})
            return
    batch.reviews.append(review)
