"""The pick quota: how many papers each expert is asked to pick per category on the report's
pages (shown to every expert as "k of <quota>").

A module of its own, without pandas or the report's templates, so that `paperrank rank` checks
--pick-quota before anything runs and imports the report itself only when it draws the page.
"""

from __future__ import annotations

from paperrank.core.errors import PaperrankError

PICK_QUOTA = 5  # picks an expert is asked for per category: the page's counter (a setting)
MAX_QUOTA = 1000


def parse_quota(text: str) -> int:
    """--pick-quota as a whole number from 1 to MAX_QUOTA; anything else is one clear line
    (PaperrankError, exit 2) naming what is allowed."""
    text = str(text).strip()
    if not text.isdigit() or not 1 <= int(text) <= MAX_QUOTA:
        raise PaperrankError(f"--pick-quota (PICK_QUOTA): must be a whole number from 1 to "
                             f"{MAX_QUOTA} (papers per category), got {text!r}")
    return int(text)


def check_quota(quota: int) -> int:
    """The pick quota: a whole number of papers per category, at least 1 (a wrong one must not
    reach the page)."""
    if isinstance(quota, bool) or not isinstance(quota, int) or not 1 <= quota <= MAX_QUOTA:
        raise PaperrankError(f"the pick quota must be a whole number from 1 to {MAX_QUOTA} "
                             f"(papers per category), not {quota!r}")
    return quota
