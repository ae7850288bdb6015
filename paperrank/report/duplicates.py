"""The near-duplicate setting of the experts' page: from which similarity two picks that are each
other's related papers get a notice beside their category's pick counter.

A module of its own, without pandas or the templates (like the pick quota), so that a command can
check the setting before anything runs.  The default is chosen on ICLR 2026: see
docs/related-papers.md, "Maps on the page".
"""

from __future__ import annotations

from paperrank.core.errors import PaperrankError

NEAR_DUPLICATE = 0.4


def parse_near_duplicate(text: str) -> float:
    """The setting as typed (an option's text): a number above 0 and at most 1, else one line
    naming what is allowed."""
    try:
        value = float(str(text).strip())
    except ValueError:
        value = float("nan")
    if not 0 < value <= 1:  # NaN fails too
        raise PaperrankError(f"the near-duplicate similarity must be a number above 0 and at "
                             f"most 1, got {text!r}")
    return value


def check_near_duplicate(threshold: object) -> float:
    """The setting as passed to the page: a number above 0 and at most 1 (a wrong one would flag
    every pair of picks, or none, without a word)."""
    if isinstance(threshold, bool) or not isinstance(threshold, int | float) \
            or not 0 < float(threshold) <= 1:
        raise PaperrankError(f"the near-duplicate similarity must be a number above 0 and at "
                             f"most 1, not {threshold!r}")
    return float(threshold)
