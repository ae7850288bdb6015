"""Every venue's page of a warehouse: read its marts, check them, draw one page per venue.

`paperrank.publish.report_files` calls this into the folder it stages (the page benchmark into
a scratch folder); the command is `paperrank report` (paperrank.cli.report).
"""

from __future__ import annotations

from pathlib import Path

from paperrank.report import marts, render
from paperrank.report.duplicates import NEAR_DUPLICATE, check_near_duplicate
from paperrank.report.quota import PICK_QUOTA, check_quota


def write_reports(db: Path, out_dir: Path, venues: list[str] | None = None,
                  below: int = render.BELOW_CUT,
                  quota: int = PICK_QUOTA,
                  near_duplicate: float = NEAR_DUPLICATE) -> list[tuple[str, Path]]:
    """Render one page per venue (default: every ranked venue) of `db`'s marts; return
    (venue, page) pairs; two picks are near-duplicates above `near_duplicate` (0 < it <= 1,
    checked before the warehouse is opened). `publish_report` calls this into the folder it
    stages (the page benchmark into a scratch folder)."""
    check_near_duplicate(near_duplicate)
    con = marts.connect(db)
    try:
        marts.check_marts(marts.mart_columns(con))
        chosen = venues or marts.venues(con)
        if not chosen:
            raise marts.MartsError(f"{db} has no ranked papers (marts.paper_rankings is empty)")
        loaded = [marts.load_venue(con, venue) for venue in chosen]
    finally:
        con.close()
    check_quota(quota)
    return [(data.venue, render.write(data, out_dir, below, quota, near_duplicate).resolve())
            for data in loaded]
