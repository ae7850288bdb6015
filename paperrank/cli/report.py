"""`paperrank report [--db PATH] [--venue NAME] [--out-dir DIR] [--pick-quota N]`: the experts' report.

Draws one self-contained HTML page per venue of the warehouse's marts (default: the published
warehouse, PAPERRANK_PUBLISHED_DB) into a new version of the report folder and switches to it
whole, as `rank` does (a failure leaves the previous pages); prints where each page is.
"""

from __future__ import annotations

from pathlib import Path

import click

from paperrank.core import config
from paperrank.core.errors import PaperrankError
from paperrank.publish import outputs, report_files, report_index
from paperrank.report import marts, render
from paperrank.report.duplicates import NEAR_DUPLICATE, parse_near_duplicate
from paperrank.report.quota import MAX_QUOTA, PICK_QUOTA, parse_quota

DEFAULT_DB = config.DEFAULT_PUBLISHED


def default_db() -> Path:
    return config.published_db()


@click.command("report", help=__doc__)
@click.option("--db", type=click.Path(path_type=Path), default=None,
              help=f"warehouse to read (default: PAPERRANK_PUBLISHED_DB, else {DEFAULT_DB})")
@click.option("--venue", multiple=True,
              help="venue to report on (repeatable; default: every ranked venue)")
@click.option("--out-dir", type=click.Path(path_type=Path), default=None,
              help=f"folder for the pages (default: one folder per venue under "
                   f"{config.DEFAULT_REPORT_DIR}, and its index.html)")
@click.option("--below", type=int, default=render.BELOW_CUT,
              help=f"papers shown below each shortlist's cut (default: {render.BELOW_CUT})")
@click.option("--pick-quota", "quota", default=str(PICK_QUOTA),
              help=f"papers each expert is asked to pick per category, shown as a counter "
                   f"(1 to {MAX_QUOTA}; default: {PICK_QUOTA})")
@click.option("--near-duplicate", default=str(NEAR_DUPLICATE),
              help="similarity from which two picks that are each other's related papers get a "
                   f"notice (above 0, at most 1; default: {NEAR_DUPLICATE})")
def command(db: Path | None, venue: tuple[str, ...], out_dir: Path | None, below: int, quota: str,
            near_duplicate: str) -> None:
    if below < 0:
        raise PaperrankError(f"--below must be 0 or more, not {below}")
    chosen_quota = parse_quota(quota)
    similarity = parse_near_duplicate(near_duplicate)
    source = db or default_db()
    if out_dir is not None:
        for name, path in report_files.publish_report(source, out_dir, list(venue) or None,
                                                      below=below, quota=chosen_quota,
                                                      near_duplicate=similarity):
            print(f"report for {name}: {path}")
        return
    con = marts.connect(source)
    try:
        chosen = list(venue) or marts.venues(con)
    finally:
        con.close()
    for one in chosen:  # each venue's page in its own folder, then the index of them all
        folder = outputs.report_dir(one, None)
        outputs.check(folder, one)
        for name, path in report_files.publish_report(source, folder, [one], below=below,
                                                      quota=chosen_quota, near_duplicate=similarity):
            print(f"report for {name}: {path}")
        outputs.remember(one, folder)
    print(f"index of every venue's page: {report_index.write_index(outputs.report_root())}")
