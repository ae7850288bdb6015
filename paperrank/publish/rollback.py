"""`paperrank rollback [--venue V]`: publish one venue's previous build again, and its CSVs and page.

The published warehouse holds every venue's latest audited build; a rollback brings the named
venue's previous one back (a new publication: that venue's rows of the earlier publication that
holds them, every other venue's rows as they are now), then exports that venue's CSVs again and
points its report folder back at that build's page (drawn again when no version of it is kept).
Other venues' tables, CSVs and pages are left as they are. The order is each venue's own
(publish A, B; roll back to A; publish C; the next rollback gives A, never the withdrawn B).
VENUE may be left out when the published warehouse holds one venue.
"""

from __future__ import annotations

from pathlib import Path

import click

from paperrank.core import venue_name
from paperrank.core.errors import PaperrankError
from paperrank.pipeline import rank
from paperrank.publish import outputs, publish, report_files, venue_history, versions


@click.command("rollback", help=__doc__)
@click.option("--venue", default=None, help="the venue to roll back (default: the only one published)")
@click.option("--export-dir", type=click.Path(path_type=Path), default=None,
              help=f"folder of the venue's CSVs (default {rank.DEFAULT_EXPORT_DIR}/<venue>)")
@click.option("--report-dir", type=click.Path(path_type=Path), default=None,
              help=f"folder of the venue's report page (default {rank.DEFAULT_REPORT_DIR}/<venue>)")
@click.option("--no-export", is_flag=True, help="do not export again nor restore the report")
def command(venue: str | None, export_dir: Path | None, report_dir: Path | None, no_export: bool) -> None:
    if venue is not None:
        venue_name.check(venue, "--venue")
    published = publish.require_published(publish.published_path())
    publish.claim(published, create=False)  # a file paperrank did not write is refused first
    current = versions.current(published)
    if current is None:
        raise PaperrankError(f"{published} has no earlier publication to roll back to")
    chosen = venue_history.one_venue(current, venue)
    exports, reports = outputs.export_dir(chosen, export_dir), outputs.report_dir(chosen, report_dir)
    if not no_export:
        rank.check_targets(exports, reports, chosen)
    withdrawn, restored, final = publish.rollback(published, chosen)
    print(f"{published}: {chosen}: build {withdrawn} -> {restored} ({final.name})")
    if not no_export:
        print(rank.export(exports, chosen, False))
        pages = report_files.restore(reports, published, chosen)
        if pages is None:
            pages = report_files.publish_report(published, reports, [chosen])
        outputs.remember(reports, chosen)
        if report_dir is None:
            report_files.write_index(outputs.report_root())
        for shown, page in pages:
            print(f"report for {shown}: {page}")
