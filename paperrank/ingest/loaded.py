"""What every loader says at the end: its summary, and a failure when nothing was loaded."""

from __future__ import annotations

from paperrank.core.errors import PaperrankError
from paperrank.core.loads import LoadSummary


def finish_load(summary: LoadSummary) -> None:
    """Print a loader's summary; a load that read records but loaded none of them fails.

    Every rejection is already kept in raw.rejected_records with its reason; the exit code
    makes sure a script running the load notices that nothing came of it.
    """
    print(summary.render())
    if summary.records_read == 0:
        raise PaperrankError(f"{summary.source} holds no records (0 rows); nothing was loaded")
    if summary.papers_loaded + summary.reviews_loaded + summary.labels_loaded == 0:
        raise PaperrankError(f"nothing loaded: all {summary.records_read} records of "
                             f"{summary.source} were rejected (reasons above and in "
                             "raw.rejected_records)")
