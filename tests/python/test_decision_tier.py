"""The decision tier follows the one status rule (paperrank.ingest.status): accepted statuses
by the tier word they use, the others as withdrawn, rejected or undecided, never a guess."""

from __future__ import annotations

import pytest

from paperrank.ingest.status import TIERS, decision_tier, is_accepted

CASES = {
    "Oral": "oral", "ICLR 2026 Oral": "oral", "ICLR 2026 ConditionalOral": "oral",
    "notable top 5%": "oral", "Accept (Spotlight)": "spotlight", "notable top 25%": "spotlight",
    "Poster": "poster", "ICLR 2026 ConditionalPoster": "poster", "Accept": "accepted",
    None: "accepted",  # a plain list of accepted papers
    "Reject": "rejected", "Desk Rejected": "rejected",
    "Workshop": "rejected",  # paperlists: rejected from the main track, invited to the workshop
    "Withdraw": "withdrawn", "Withdrawn Submission": "withdrawn",
    "Active": "undecided", "ICLR 2026 Conference Submission": "undecided", "Pending": "undecided",
    "something new": "undecided",  # an unknown word is never counted as a decision
}


@pytest.mark.parametrize(("status", "tier"), CASES.items())
def test_tier_of_each_status(status: str | None, tier: str) -> None:
    assert decision_tier(status) == tier
    assert tier in TIERS
    # the tier never disagrees with is_accepted
    assert (tier in ("oral", "spotlight", "poster", "accepted")) == is_accepted(status)


def test_the_loaders_decision_wins_over_the_text() -> None:
    # the notes loader decides from more than one text; the tier follows its decision
    assert decision_tier("ICLR 2026 Conference Submission", accepted=True) == "accepted"
    assert decision_tier("Poster", accepted=False) == "undecided"
