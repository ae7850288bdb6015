"""Rank the loaded venue, check it and deliver it: everything after loading.

    dbt build with every test -> the checks of the raw data and of the marts -> publish ->
    one CSV per ranked category -> the experts' report page

Everything up to the checks happens in the working warehouse (PAPERRANK_DB); what analysts,
spreadsheets and experts see changes only when every check passed, through the publish door
(`paperrank.publish.delivery.deliver`): the published warehouse (PAPERRANK_PUBLISHED_DB, every
venue's latest build), then the venue's CSVs and page. A failed or interrupted run leaves them
as they were. Each step prints one line; the checks' reports go to the log (and to the screen
when a check fails), dbt's log to its log folder.
"""

from __future__ import annotations

from pathlib import Path

from paperrank.core.errors import PaperrankError
from paperrank.core.steps import Steps
from paperrank.core.warehouse import db_path
from paperrank.core.warehouse_locks import check_writable
from paperrank.pipeline import dbt, fingerprint, settings
from paperrank.pipeline.gates import Gates
from paperrank.pipeline.related_extra import refresh_related
from paperrank.pipeline.settings import Settings
from paperrank.publish.delivery import Destination, Published, deliver


def rank(chosen: Settings, export_dir: Path | None, bom: bool, log: Path,
         report_dir: Path | None = None, **report_options: float) -> tuple[Published, Destination]:
    """Build, check and deliver the venue of `chosen`; what was published, and where its CSVs
    and page went (`export_dir` and `report_dir` when given, else the venue's own folders).

    Before anything runs: every setting is checked against the seeds and the raw layer, the
    published warehouse, the export and the report folders are checked to be the project's
    own (and apart), and the working file must not be held by another process. The raw
    layer's fingerprint is taken before its checks read it and compared after the build, and
    the publish door writes nothing until the marts' verdict has passed."""
    working = db_path()
    if not working.exists():
        raise PaperrankError(f"no working warehouse at {working}; load data first "
                             "(paperrank ingest ..., paperrank classify ...)")
    settings.check(chosen, working, one_venue=True)  # every setting, before anything runs
    venue = settings.ranked_venue(chosen, working)
    destination = Destination.checked(venue, export_dir, report_dir, bom, **report_options)
    check_writable(working)
    log.parent.mkdir(parents=True, exist_ok=True)
    refresh_related(chosen, working)
    # the gates' worker fingerprints and reads the raw tables while dbt starts, checks them
    # beside the build
    gates = Gates(chosen, log)
    try:
        steps = Steps(6)
        try:
            try:
                extras = steps.run("dbt build", lambda: dbt.build(
                    chosen.dbt_vars(), chosen.engine, chosen.extras, gates.released))
            finally:
                if gates.refused is None:  # else the build step said why nothing ran
                    steps.run("raw checks", gates.raw)  # a raw failure explains a failed build first
        except dbt.DbtFailed:
            # a loader that wrote during the build explains its failed tests (the related
            # marts' check sees a paper it never computed): say that, in one line
            fingerprint.require_unchanged(gates.released(), working)
            raise
        raw_before = gates.released()
        gates.start_marts()  # the worker fingerprints the raw layer again, then checks the marts
        published = deliver(working, destination, engine=chosen.engine, extras=extras,
                            audit=[("mart checks", lambda: gates.marts_verdict(raw_before))],
                            steps=steps)
    finally:
        gates.stop()
    return published, destination
