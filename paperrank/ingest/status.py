"""Whether a paper was accepted: the one rule both loaders (paperlists files, OpenReview notes)
apply, so the same paper can never be accepted by one and submitted by the other.

A paper is accepted when its venue or decision says so ("Poster", "ICLR 2026 Oral",
"Accept (Spotlight)", "ICLR 2026 ConditionalPoster"); rejected, withdrawn, desk-rejected and
undecided ("Conference Submission", "Pending") papers are not, and neither is a status that
says none of these.  A record with no status at all is what a plain list of accepted papers
looks like, a legitimate input: its papers are taken as accepted, and the load says how many
it took that way (`StatusCount.warning`), never silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ACCEPTED = re.compile(r"\b(poster|oral|spotlight|accept|conditional|notable|highlight)", re.I)
REJECTED = re.compile(r"reject", re.I)
WITHDRAWN = re.compile(r"withdr", re.I)
DESK_REJECTED = re.compile(r"desk[\s_-]*reject", re.I)
UNDECIDED = re.compile(r"submitted|submission|pending|\bactive\b", re.I)
WORKSHOP = re.compile(r"workshop", re.I)  # paperlists' "Workshop": rejected, invited to the workshop
ORAL = re.compile(r"oral|notable[\s_-]*top[\s_-]*5\b", re.I)  # "ICLR 2026 ConditionalOral" too
SPOTLIGHT = re.compile(r"spotlight|notable[\s_-]*top[\s_-]*25|highlight", re.I)
POSTER = re.compile(r"poster", re.I)

# The decision tiers, best first (the outcome columns of staging.stg_raw__papers).
TIERS = ("oral", "spotlight", "poster", "accepted", "rejected", "withdrawn", "undecided")


def says_accepted(text: str) -> bool | None:
    """True when a venue or decision text says accepted, False when it says rejected,
    withdrawn or undecided, None when it says neither."""
    if WITHDRAWN.search(text) or REJECTED.search(text) or UNDECIDED.search(text):
        return False
    if ACCEPTED.search(text):
        return True
    return None


def is_accepted(status: str | None) -> bool:
    """The rule for one status text; None (no status at all) counts as accepted."""
    if status is None:
        return True
    return says_accepted(status) is True


def decision_tier(status: str | None, accepted: bool | None = None) -> str:
    """The decision tier of one status, by the rule `is_accepted` applies (or the loader's
    `accepted`, when it decided from more than this text, as the notes loader does).

    Accepted papers are oral, spotlight or poster by the word their status uses ("accepted"
    when it names no tier, as a plain list of accepted papers does); the others are withdrawn,
    rejected (a reject, a desk reject, or paperlists' "Workshop": rejected from the main track
    and invited to the workshop) or undecided ("Active", "Submitted", "Pending", and any status
    that says nothing this rule knows, so an unknown word is never counted as a decision).
    """
    if accepted if accepted is not None else is_accepted(status):
        text = status or ""
        if ORAL.search(text):
            return "oral"
        if SPOTLIGHT.search(text):
            return "spotlight"
        if POSTER.search(text):
            return "poster"
        return "accepted"
    if status is None:
        return "undecided"
    if WITHDRAWN.search(status):
        return "withdrawn"
    if REJECTED.search(status) or WORKSHOP.search(status):
        return "rejected"
    return "undecided"


@dataclass
class StatusCount:
    """Counts the papers a load took as accepted without a status, for its warning."""

    without_status: int = 0

    def settle(self, status: str | None) -> tuple[str | None, bool]:
        """(status, is_accepted) of one paper, counting it when it had no status."""
        if status is None:
            self.without_status += 1
        return status, is_accepted(status)

    def warning(self) -> str | None:
        if not self.without_status:
            return None
        return (f"{self.without_status} papers have no status (no venue, decision or status "
                "field); they are taken as accepted, as in a list of accepted papers")
