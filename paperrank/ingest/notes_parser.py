"""Parse OpenReview API v2 notes (submissions with their replies) into one load's batch.

Records, the unit of "records read = loaded + rejected":
- every submission note (each non-blank line, or each note of an API answer on a line),
  whether or not it can be read;
- every official review (a reply whose invitation ends in `/-/Official_Review`), counted
  once per review id: older versions of the same review are folded into the latest and
  reported separately, never loaded;
- every reply that cannot be classified (not an object, no invitation).
Other replies (decisions, comments, withdrawals) are context: they decide a paper's status
(through `paperrank.ingest.status`, the rule the paperlists loader applies too) but are not rows of
their own.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from paperrank.core.loads import Batch
from paperrank.core.schema import SIGNALS
from paperrank.ingest.fields import BadField, clean_text, clean_url, join_authors
from paperrank.ingest.jsonl_reader import Item, Unreadable
from paperrank.ingest.profiles import UNPARSABLE, BadScore, Profile, check_form_signals, parse_score
from paperrank.ingest.status import (
    DESK_REJECTED,
    REJECTED,
    WITHDRAWN,
    StatusCount,
    decision_tier,
    is_accepted,
    says_accepted,
)

KIND = "openreview_notes"
SITE = "https://openreview.net"
OFFICIAL_REVIEW = "/-/Official_Review"
_EPOCH_MS_MAX = 10**14  # beyond year 5000: not a timestamp


@dataclass
class LoadReport:
    """What a notes file held beyond the summary's counts, so nothing goes unexplained."""

    notes_read: int = 0
    superseded_versions: int = 0
    context_replies: int = 0
    warnings: list[str] = field(default_factory=list)

    def render(self) -> str:
        return (
            f"notes read: {self.notes_read}\n"
            f"older review versions folded into their latest: {self.superseded_versions}\n"
            f"other replies used as context (decisions, comments): {self.context_replies}"
        )


class _Bad(Exception):
    """One bad value of a note or review; the message names the record and the field."""


@dataclass
class _PaperCandidate:
    note_id: str
    where: str
    mdate: int
    row: dict[str, Any]
    note: dict[str, Any]
    context: list[dict[str, Any]]


@dataclass
class _ReviewEntry:
    review_id: str
    paper_id: str
    where: str
    mdate: int
    reply: dict[str, Any]


class NotesParser:
    """Turns the items of one file into papers, reviews and rejections."""

    def __init__(self, venue: str, profile: Profile, known_papers: set[str]) -> None:
        self.venue = venue
        self.profile = profile
        self.known_papers = known_papers
        self.report = LoadReport()
        self.records = 0
        self.newest_ms: int | None = None
        self.papers: dict[str, list[_PaperCandidate]] = defaultdict(list)
        self.rejected_papers: set[str] = set()
        self.reviews: dict[str, list[_ReviewEntry]] = defaultdict(list)
        self.top_level_context: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.domains: set[str] = set()
        self.rejections: list[tuple[str, str, Any]] = []
        self.statuses = StatusCount()

    # -- reading ---------------------------------------------------------------------------

    def consume(self, items: Iterable[Item | Unreadable]) -> None:
        for item in items:
            if isinstance(item, Unreadable):
                self.report.notes_read += 1
                self._reject(item.where, item.reason, item.raw)
                continue
            value = item.value
            api_answer = isinstance(value, dict) and "id" not in value
            if api_answer and isinstance(value.get("notes"), list):
                for index, note in enumerate(value["notes"], start=1):
                    self._note(f"{item.where} note #{index}", note)
            else:
                self._note(item.where, value)

    def _reject(self, record_key: str, reason: str, payload: Any = None) -> None:
        self.records += 1
        self.rejections.append((record_key, reason, payload))

    def _note(self, where: str, note: Any) -> None:
        self.report.notes_read += 1
        if not isinstance(note, dict):
            self._reject(where, f"invalid note: {where} is a JSON {_kind(note)}, not an object",
                         note)
            return
        self._see_time(note)
        invitations = _invitations(note)
        forum, note_id = note.get("forum"), note.get("id")
        is_reply = isinstance(forum, str) and forum and forum != note_id
        if is_reply or note.get("replyto"):
            self._top_level_reply(where, note, invitations)
            return
        try:
            candidate = self._paper(where, note)
        except (_Bad, BadField) as bad:
            key = where
            if isinstance(note_id, str) and note_id:
                self.rejected_papers.add(note_id)
                key = f"{where} note {note_id}"
            self._reject(key, str(bad), _without_replies(note))
            self._replies(where, note, str(note_id) if isinstance(note_id, str) else None)
            return
        self.records += 1
        self.papers[candidate.note_id].append(candidate)
        candidate.context = self._replies(where, note, candidate.note_id)

    def _top_level_reply(self, where: str, note: dict[str, Any], invitations: list[str]) -> None:
        forum = note.get("forum") if isinstance(note.get("forum"), str) else None
        if any(i.endswith(OFFICIAL_REVIEW) for i in invitations):
            self._review_entry(where, note, forum)
        elif forum:
            self.report.context_replies += 1
            self.top_level_context[forum].append(note)
        else:
            self._reject(where, f"invalid reply: {where} answers no forum", note)

    def _replies(self, where: str, note: dict[str, Any], paper_id: str | None) -> list[dict]:
        """Collect a note's official reviews; return its other replies as context."""
        replies = note.get("replies")
        if replies is None and isinstance(note.get("details"), dict):
            replies = note["details"].get("replies")
        if replies is None:
            return []
        if not isinstance(replies, list):
            self._reject(f"{where} replies",
                         f"invalid reply: note {paper_id} field replies: expected a list, got "
                         f"{_kind(replies)}", replies)
            return []
        context = []
        for index, reply in enumerate(replies, start=1):
            here = f"{where} reply #{index}"
            if not isinstance(reply, dict):
                self._reject(here, f"invalid reply: {here} of note {paper_id} is a JSON "
                                   f"{_kind(reply)}, not an object", reply)
                continue
            self._see_time(reply)
            invitations = _invitations(reply)
            if not invitations:
                self._reject(here, f"missing invitation: reply {reply.get('id', '#' + str(index))} "
                                   f"of note {paper_id} has no invitation", reply)
                continue
            if any(i.endswith(OFFICIAL_REVIEW) for i in invitations):
                forum = reply.get("forum")
                if paper_id is not None and isinstance(forum, str) and forum != paper_id:
                    self._reject(here, f"unknown paper: review {reply.get('id')} names forum "
                                       f"{forum} but sits under note {paper_id}", reply)
                    continue
                self._review_entry(here, reply, paper_id)
            else:
                self.report.context_replies += 1
                context.append(reply)
        return context

    def _review_entry(self, where: str, reply: dict[str, Any], paper_id: str | None) -> None:
        review_id = reply.get("id")
        if not isinstance(review_id, str) or not review_id.strip():
            self._reject(where, f"missing id: official review at {where} has no review id", reply)
            return
        if isinstance(reply.get("domain"), str):
            self.domains.add(reply["domain"])
        self.records += 1
        self.reviews[review_id].append(
            _ReviewEntry(review_id, paper_id or "", where, _mdate(reply), reply)
        )

    def _see_time(self, note: dict[str, Any]) -> None:
        stamp = _mdate(note)
        if stamp > 0 and (self.newest_ms is None or stamp > self.newest_ms):
            self.newest_ms = stamp

    # -- papers ----------------------------------------------------------------------------

    def _paper(self, where: str, note: dict[str, Any]) -> _PaperCandidate:
        note_id = note.get("id")
        if not isinstance(note_id, str) or not note_id.strip():
            raise _Bad(f"missing id: the note at {where} has no id")
        if clean_text(note_id, f"the note at {where}", "paper_id") != note_id:
            raise _Bad(f"invalid id: the note at {where} has an id with blanks or control "
                       "characters")
        content = note.get("content")
        if content is None:
            raise _Bad(f"missing content: note {note_id} has no content")
        if not isinstance(content, dict):
            raise _Bad(f"wrong type: note {note_id} field content: expected an "
                       f"object, got {_kind(content)}")
        text = {name: _text(note_id, content, name)
                for name in ("title", "abstract", "primary_area", "pdf")}
        where_note = f"note {note_id}"
        row = {
            "paper_id": note_id,
            "venue": self.venue,
            "title": text["title"],
            "abstract": text["abstract"],
            "primary_area": text["primary_area"],
            "keywords": _keywords(note_id, content),
            "authors": _authors(note_id, content),
            "status": None,
            "is_accepted": False,
            "forum_url": clean_url(f"{SITE}/forum?id={note_id}", where_note, "forum_url"),
            "pdf_url": clean_url(_pdf_url(text["pdf"]), where_note, "pdf"),
        }
        return _PaperCandidate(note_id, where, _mdate(note), row, note, [])

    # -- finishing -------------------------------------------------------------------------

    def finish(self, source: str, snapshot_at: datetime) -> Batch:
        batch = Batch(KIND, source, snapshot_at)
        for record_key, reason, payload in self.rejections:
            batch.reject(record_key, reason, payload)
        for note_id, candidates in self.papers.items():
            winner = max(candidates, key=lambda c: c.mdate)  # first of the newest on a tie
            for other in candidates:
                if other is not winner:
                    batch.reject(f"{other.where} note {note_id}",
                                 f"duplicate note: note {note_id} at {other.where} is also at "
                                 f"{winner.where}; kept the newest copy",
                                 _without_replies(other.note))
            status, accepted = decide_status(
                winner.note, winner.context + self.top_level_context.get(note_id, [])
            )
            if status is None:
                status, accepted = self.statuses.settle(None)
            batch.papers.append({**winner.row, "status": status, "is_accepted": accepted,
                                 "decision_tier": decision_tier(status, accepted)})
        loaded = {p["paper_id"] for p in batch.papers}
        known = loaded | (self.known_papers - self.rejected_papers)
        self._finish_reviews(batch, known)
        self._warn_about_form()
        warning = self.statuses.warning()
        if warning:
            self.report.warnings.append(warning)
        batch.records_read = self.records
        check_form_signals(self.profile, batch, self.venue)
        return batch

    def _finish_reviews(self, batch: Batch, known: set[str]) -> None:
        for review_id, entries in self.reviews.items():
            newest = max(entry.mdate for entry in entries)
            winner = next(entry for entry in entries if entry.mdate == newest)
            for entry in entries:
                if entry is winner:
                    continue
                if entry.mdate == newest:
                    batch.reject(entry.where, f"duplicate review: review {review_id} at "
                                              f"{entry.where} repeats the version at "
                                              f"{winner.where}", entry.reply)
                elif entry.paper_id != winner.paper_id:
                    batch.reject(entry.where, f"duplicate review: review {review_id} at "
                                              f"{entry.where} is filed under paper "
                                              f"{entry.paper_id or '(none)'} but its newest "
                                              f"version under {winner.paper_id}", entry.reply)
                else:
                    self.records -= 1
                    self.report.superseded_versions += 1
            if winner.paper_id not in known:
                batch.reject(winner.where, f"unknown paper: review {review_id} belongs to paper "
                                           f"{winner.paper_id or '(a note without id)'}, which "
                                           "is not loaded", winner.reply)
                continue
            try:
                batch.reviews.append(self._review_row(winner))
            except _Bad as bad:
                batch.reject(f"{winner.where} review {review_id}", str(bad), winner.reply)

    def _review_row(self, entry: _ReviewEntry) -> dict[str, Any]:
        content = entry.reply.get("content")
        if not isinstance(content, dict):
            raise _Bad(f"missing content: review {entry.review_id} has no "
                                          "content object")
        row: dict[str, Any] = {
            "paper_id": entry.paper_id,
            "review_id": entry.review_id,
            "reviewer": _reviewer(entry.reply.get("signatures")),
        }
        problems: list[tuple[str, BadScore]] = []
        for signal in SIGNALS:
            spec = self.profile.fields.get(signal)
            row[signal] = None
            if spec is None or not spec.form_field:
                continue
            try:
                row[signal] = parse_score(content.get(spec.form_field), spec)
            except BadScore as error:
                problems.append((spec.form_field, error))
            except RecursionError:
                problems.append((spec.form_field, BadScore(UNPARSABLE, "nested too deeply")))
        if problems:
            kind = problems[0][1].kind
            details = "; ".join(f"field {name}: {error}" for name, error in problems)
            raise _Bad(f"{kind}: review {entry.review_id} {details}")
        return row

    def _warn_about_form(self) -> None:
        missing = self.profile.missing_signals()
        if missing:
            self.report.warnings.append(
                f"the {self.profile.name} review form has no field for "
                f"{', '.join(missing)}; these signals stay empty for {self.venue}"
            )
        # A form field no review has fails the load instead (profiles.check_form_signals).
        pattern = self.profile.venue_id_pattern.replace("%", "")
        foreign = sorted(d for d in self.domains if not d.startswith(pattern))
        if foreign:
            self.report.warnings.append(
                f"reviews come from {', '.join(foreign[:3])} but profile {self.profile.name} "
                f"is for {self.profile.venue_id_pattern}"
            )


def decide_status(note: dict[str, Any], replies: list[dict[str, Any]]) -> tuple[str | None, bool]:
    """A paper's status and whether it was accepted, from what OpenReview says about it.

    The venue string ("ICLR 2026 Poster", "ICLR 2026 ConditionalOral", "... Withdrawn
    Submission") is the venue's final word; the venue id (accepted papers carry the
    conference's own id, the others `.../Rejected_Submission` and so on) and a Decision reply
    settle papers whose venue string still says "Submission".  The texts are read by the rule
    of `paperrank.ingest.status`; a note with no venue, venue id or decision has no status (None).
    """
    found = note.get("content")
    content = found if isinstance(found, dict) else {}
    venue = _plain(content.get("venue"))
    venue = venue if isinstance(venue, str) else ""
    venueid = _plain(content.get("venueid"))
    venueid = venueid if isinstance(venueid, str) else ""
    reply_invitations = [i for reply in replies for i in _invitations(reply)]
    if (note.get("withdrawn") is True or venueid.endswith("Withdrawn_Submission")
            or WITHDRAWN.search(venue)
            or any(i.endswith("/-/Withdrawal") for i in reply_invitations)):
        return (venue if WITHDRAWN.search(venue) else "Withdrawn"), False
    if (venueid.endswith("Desk_Rejected_Submission") or DESK_REJECTED.search(venue)
            or any(i.endswith("/-/Desk_Rejection") for i in reply_invitations)):
        return (venue if DESK_REJECTED.search(venue) else "Desk Rejected"), False
    if REJECTED.search(venue) or venueid.endswith("Rejected_Submission"):
        return (venue or "Rejected"), False
    if venue and says_accepted(venue):
        return venue, True
    if venueid and "/" in venueid and not venueid.endswith("Submission"):
        return (venue or "Accepted"), True
    decision = _latest_decision(replies)
    if decision is not None and says_accepted(decision) is not None:
        return decision, is_accepted(decision)
    if not venue and not venueid and decision is None:
        return None, is_accepted(None)
    return (venue or "Submitted"), False


def _latest_decision(replies: list[dict[str, Any]]) -> str | None:
    decisions = [r for r in replies if any(i.endswith("/-/Decision") for i in _invitations(r))]
    if not decisions:
        return None
    latest = max(decisions, key=_mdate)
    found = latest.get("content")
    content = found if isinstance(found, dict) else {}
    value = _plain(content.get("decision"))
    return value if isinstance(value, str) else None


def _plain(value: Any) -> Any:
    """API v2 wraps field values as {"value": ...}; crawlers often flatten them."""
    if isinstance(value, dict) and "value" in value:
        return value["value"]
    return value


def _text(note_id: str, content: dict[str, Any], name: str) -> str | None:
    value = _plain(content.get(name))
    if value is None:
        return None
    if not isinstance(value, str):
        raise _Bad(f"wrong type: note {note_id} field {name}: expected text, got "
                   f"{_kind(value)}")
    return clean_text(value, f"note {note_id}", name)


def _keywords(note_id: str, content: dict[str, Any]) -> list[str]:
    value = _plain(content.get("keywords"))
    if value is None:
        return []
    if isinstance(value, str):
        value = value.split(",")
    if isinstance(value, list) and all(isinstance(k, str) for k in value):
        cleaned = (clean_text(k, f"note {note_id}", "keywords", "keyword") for k in value)
        return [k for k in cleaned if k]
    raise _Bad(f"wrong type: note {note_id} field keywords: expected a list of "
               f"text, got {_kind(value)}")


def _authors(note_id: str, content: dict[str, Any]) -> str | None:
    """The author names, '; '-joined (the raw contract's form of raw.papers.authors)."""
    value = _plain(content.get("authors"))
    if value is None:
        return None
    if isinstance(value, list) and all(isinstance(a, str) for a in value):
        return join_authors(value, f"note {note_id}")
    raise _Bad(f"wrong type: note {note_id} field authors: expected a list of "
               f"text, got {_kind(value)}")


def _pdf_url(pdf: str | None) -> str | None:
    if not pdf:
        return None
    return pdf if pdf.startswith(("http://", "https://")) else SITE + "/" + pdf.lstrip("/")


def _invitations(note: dict[str, Any]) -> list[str]:
    """API v2 lists `invitations`; API v1 dumps carry a single `invitation`."""
    many = note.get("invitations")
    if isinstance(many, list):
        return [i for i in many if isinstance(i, str)]
    one = note.get("invitation")
    return [one] if isinstance(one, str) else []


def _reviewer(signatures: Any) -> str | None:
    """The anonymous reviewer id, e.g. "Reviewer_HHsy", from the review's signature."""
    if isinstance(signatures, list) and signatures and isinstance(signatures[0], str):
        return signatures[0].rsplit("/", 1)[-1]
    return None


def _mdate(note: dict[str, Any]) -> int:
    """The note's last modification in epoch ms (0 when unknown or not a number)."""
    best = 0
    for key in ("tmdate", "mdate", "tcdate", "cdate"):
        value = note.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool) \
                and 0 < value < _EPOCH_MS_MAX:
            best = max(best, int(value))
    return best


def _without_replies(note: dict[str, Any]) -> dict[str, Any]:
    """A note's own fields, for a rejection payload a person can read."""
    return {k: v for k, v in note.items() if k not in ("replies", "details")}


def _kind(value: Any) -> str:
    return {dict: "object", list: "list", str: "text", bool: "boolean", type(None): "null"}.get(
        type(value), "number" if isinstance(value, (int, float)) else type(value).__name__
    )
