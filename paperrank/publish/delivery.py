"""The publish door: deliver a finished build of a venue to everyone who reads it.

`deliver` is the one call the pipeline makes to publish (`paperrank.publish.rollback.roll_back`
is the one to go back). In this order:

    the build checked to be one whole build of the extras asked for -> the audit (the
    pipeline's checks, each a step: nothing is written unless every one passes) -> under the
    publish lock (`paperrank.publish.lock`): compose the new publication
    (the build's venues from the working warehouse, every other venue as published) -> switch
    the published warehouse and record each venue's build -> the venue's CSVs and its page,
    both written before either is switched

Each output is switched in whole (`paperrank.publish.versions`), so a run killed at any point
leaves each the previous build's or the new one's, and the lock makes the next publisher compose
from this one's publication, so two venues delivered at overlapping times both land.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple, TypeVar

from paperrank.core.steps import Steps
from paperrank.publish import (
    category_csvs,
    lock,
    outputs,
    publication,
    report_files,
    report_index,
    versions,
)
from paperrank.publish.targets import Destination

T = TypeVar("T")

__all__ = ["Destination", "Published", "deliver"]


class Published(NamedTuple):
    """What `deliver` switched in: the build's id and its publication file."""

    build_id: str
    version: Path


def deliver(working: Path, destination: Destination | None = None, *, engine: str = "duckdb",
            extras: tuple[str, ...] | None = None,
            audit: Sequence[tuple[str, Callable[[], object]]] = (),
            steps: Steps | None = None, published: Path | None = None,
            keep: int = versions.KEEP) -> Published:
    """Publish the build in `working` (built by `engine`, holding exactly `extras`, or whatever
    it holds when None) once every named check of `audit` has passed, then its venue's CSVs and
    page to `destination` (none: the published warehouse alone, as `paperrank publish`).
    `steps` numbers the lines printed (none: nothing printed); `published` defaults to
    PAPERRANK_PUBLISHED_DB.

    With `extras`, the working warehouse must hold one build of exactly those extras, with every
    mart it lists, before the audit starts: so the audit checks that build's marts and no
    earlier build's left beside them."""
    published = published or publication.published_path()
    if extras is not None:
        publication.check_build(working, engine, extras)
    for name, check in audit:
        _step(steps, name, check)
    publication.claim(published)  # the versions folder, where the lock lives, is the project's
    doing = f"the delivery of {destination.venue if destination else working}"
    with lock.publishing(published, doing, say=_say(steps)):
        done = _step(steps, "publish", lambda: publication.publish(working, published, keep, engine,
                                                                   extras))
        _say(steps)(f"published build {done[0]} of {working}: {published} -> {done[1].name}")
        if destination is not None:
            _outputs(steps, published, destination)
    return Published(*done)


def _outputs(steps: Steps | None, published: Path, destination: Destination) -> None:
    """The published build's CSVs and page, each written whole, then both switched in
    (`versions.write_versions`): a failure while writing either leaves both as they were."""
    venue = destination.venue
    csvs = category_csvs.new_version(published, destination.exports, venue, destination.bom)
    page = report_files.new_version(published, destination.reports, [venue],
                                    **destination.report_options)
    try:
        versions.write_versions(_as_step(steps, "export", csvs),
                                _as_step(steps, "experts' report", page.version))
    finally:  # each folder written remembers its venue, so another one's name is refused there
        outputs.remember(venue, destination.exports, destination.reports)
    if destination.index:
        report_index.write_index(outputs.report_root())
    _say(steps)(f"CSVs: {destination.exports}/ (manifest.json lists them)")
    for shown, path in page.pages():
        _say(steps)(f"report for {shown}: {path}")


def _as_step(steps: Steps | None, name: str, version: versions.NewVersion) -> versions.NewVersion:
    """`version`, its writing numbered and timed as the step `name`."""
    return replace(version, write=lambda staged: _step(steps, name, lambda: version.write(staged)))


def _step(steps: Steps | None, name: str, action: Callable[[], T]) -> T:
    return action() if steps is None else steps.run(name, action)


def _say(steps: Steps | None) -> Callable[[str], None]:
    return (lambda _line: None) if steps is None else steps.say
