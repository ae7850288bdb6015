"""The door back: one venue's previous build published again, then its CSVs and page.

What a rollback restores, and the order it walks each venue's builds in, is the command's help
(`paperrank.cli.rollback`); the publication is composed by `publication.rollback`. This module
holds the publish lock around it, as `deliver` does, so a rollback never overlaps a publish.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from paperrank.core import venue_name
from paperrank.core.errors import PaperrankError
from paperrank.publish import (
    category_csvs,
    lock,
    outputs,
    publication,
    report_files,
    report_index,
    venue_history,
    versions,
)
from paperrank.publish.targets import Destination


def roll_back(venue: str | None, export_dir: Path | None = None, report_dir: Path | None = None,
              with_outputs: bool = True, say: Callable[[str], None] = print) -> tuple[str, str, Path]:
    """Roll `venue` (None: the only one published) back one build; with `with_outputs`, its CSVs
    and page too (to the given folders, else the venue's own). Says each step in one line;
    returns the withdrawn and the restored build ids and the new publication."""
    if venue is not None:
        venue_name.check(venue, "--venue")
    published = publication.require_published(publication.published_path())
    publication.claim(published, create=False)  # a file paperrank did not write is refused first
    current = versions.current(published)
    if current is None:
        raise PaperrankError(f"{published} has no earlier publication to roll back to")
    chosen = venue_history.one_venue(current, venue)
    destination = Destination.checked(chosen, export_dir, report_dir) if with_outputs else None
    with lock.publishing(published, f"the rollback of {chosen}", say=say):
        withdrawn, restored, final = publication.rollback(published, chosen)
        say(f"{published}: {chosen}: build {withdrawn} -> {restored} ({final.name})")
        if destination is not None:
            try:
                say(category_csvs.export(published, destination.exports, chosen, False))
                for shown, page in _pages(published, destination):
                    say(f"report for {shown}: {page}")
            finally:
                outputs.remember(chosen, destination.exports, destination.reports)
    return withdrawn, restored, final


def _pages(published: Path, destination: Destination) -> list[tuple[str, Path]]:
    """The restored build's page: its kept version pointed at again, or drawn anew."""
    pages = report_files.restore(destination.reports, published, destination.venue)
    if pages is None:
        pages = report_files.publish_report(published, destination.reports, [destination.venue])
    if destination.index:
        report_index.write_index(outputs.report_root())
    return pages
