"""Every venue's page of a warehouse: read its marts, check them, draw one page per venue.

`paperrank.publish.report_files` calls this into the folder it stages (the page benchmark into
a scratch folder); the command is `paperrank report` (paperrank.cli.report).
"""

from __future__ import annotations

from pathlib import Path

from paperrank.report import marts, render
from paperrank.report.quota import PICK_QUOTA, check_quota


def write_reports(db: Path, out_dir: Path, venues: list[str] | None = None,
                  below: int = render.BELOW_CUT,
                  quota: int = PICK_QUOTA) -> list[tuple[str, Path]]:
    """Render one page per venue (default: every ranked venue) of `db`'s marts; return
    (venue, page) pairs. `publish_report` calls this into the folder it stages (the page
    benchmark into a scratch folder)."""
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
    return [(data.venue, render.write(data, out_dir, below, quota).resolve()) for data in loaded]
