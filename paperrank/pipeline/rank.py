"""`paperrank rank`: rank the loaded venue, check it, publish it, export its CSVs and draw its page.

    dbt build with every test -> the checks of the raw data and of the marts -> publish ->
    one CSV per ranked category -> the experts' report page

Everything up to the checks happens in the working warehouse (PAPERRANK_DB); what analysts,
spreadsheets and experts see changes only when every check passed, in one step: the published
warehouse (PAPERRANK_PUBLISHED_DB, every venue's latest build), then the venue's CSVs and page.
A failed or interrupted run leaves them as they were. Each step prints one line; the checks'
reports go to the log (and to the screen when a check fails), dbt's log to its log folder (at
info; DBT_LOG_LEVEL_FILE=debug adds every statement). The venue's CSVs go to exports/<venue>/
and its page to output/report/<venue>/ unless --export-dir / --report-dir say otherwise.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

import click

from paperrank.cli.options import settings_options
from paperrank.core import build_parts, config
from paperrank.core.errors import PaperrankError
from paperrank.core.warehouse import db_path, open_duckdb
from paperrank.engines import dbt_target
from paperrank.pipeline import settings
from paperrank.pipeline.dbt import Dbt, DbtFailed
from paperrank.pipeline.gates import Gates
from paperrank.pipeline.settings import Settings
from paperrank.pipeline.summary import category_summary
from paperrank.publish import export_files, fingerprint, outputs, publish, report_files, versions
from paperrank.publish.locks import check_writable
from paperrank.report import quota as pick_quota

DEFAULT_EXPORT_DIR = config.DEFAULT_EXPORT_DIR
DEFAULT_REPORT_DIR = config.DEFAULT_REPORT_DIR


def default_log() -> Path:
    """pipeline.log beside dbt.log (in DBT_LOG_PATH or logs/), read when a command runs: a
    process that runs several commands (a test session, a bench) may change the variable."""
    return config.dbt_log_path() / "pipeline.log"


@click.command("rank", help=__doc__)
@settings_options
@click.option("--export-dir", type=click.Path(path_type=Path), default=None,
              help=f"folder of the venue's category CSVs (default {DEFAULT_EXPORT_DIR}/<venue>)")
@click.option("--report-dir", type=click.Path(path_type=Path), default=None,
              help=f"folder of the venue's report page (default {DEFAULT_REPORT_DIR}/<venue>, "
                   f"with {DEFAULT_REPORT_DIR}/index.html listing every venue's page)")
@click.option("--pick-quota", "quota", default=None,
              help="papers each expert is asked to pick per category on the report's pages "
                   f"(1 to {pick_quota.MAX_QUOTA}; default {pick_quota.PICK_QUOTA})")
@click.option("--bom", is_flag=True, help="start each CSV with a UTF-8 byte order mark (for Excel)")
@click.option("--log", type=click.Path(path_type=Path), default=default_log,
              help="file the quality reports are appended to "
                   "(default: pipeline.log beside dbt.log, in DBT_LOG_PATH or logs/)")
def command(chosen: Settings, export_dir: Path | None, report_dir: Path | None, quota: str | None,
            bom: bool, log: Path) -> None:
    options = {"quota": pick_quota.parse_quota(quota)} if quota else {}  # before anything runs
    rank(chosen, export_dir, bom, log, report_dir, **options)
    print(category_summary(publish.published_path(), settings.ranked_venue(chosen, db_path())), flush=True)


def rank(chosen: Settings, export_dir: Path | None, bom: bool, log: Path,
         report_dir: Path | None = None, **report_options: int) -> str:
    """Run the back half; return the published build id.

    The venue's CSVs and report page go to `export_dir` and `report_dir` when given, else to the
    venue's own folders (`paperrank.publish.outputs`), beside the other venues' and an index.

    Before anything runs: every setting is checked against the seeds and the raw layer, the
    published warehouse, the export and the report folders are checked to be the project's
    own (and apart), and the published file must not be held by another process.  The raw
    layer's fingerprint is taken before its checks read it and compared after the build."""
    working = db_path()
    if not working.exists():
        raise PaperrankError(f"no working warehouse at {working}; load data first "
                                "(paperrank ingest ..., paperrank classify ...)")
    settings.check(chosen, working, one_venue=True)  # every setting, before anything runs
    venue = settings.ranked_venue(chosen, working)
    exports, reports = outputs.export_dir(venue, export_dir), outputs.report_dir(venue, report_dir)
    check_targets(exports, reports, venue)
    check_writable(working)
    log.parent.mkdir(parents=True, exist_ok=True)
    # -- extra `related`: related papers, sub-themes, label audit (the derived schema, not raw) --
    refresh_related(chosen, working)
    # the gates' worker fingerprints and reads the raw tables while dbt starts, checks them
    # beside the build
    gates = Gates(chosen, log)
    try:
        dbt = Dbt(chosen.dbt_vars(), target=dbt_target(chosen.engine))
        steps = Steps(6)
        try:
            try:
                extras = steps.run("dbt build",
                                   lambda: build(dbt, chosen.engine, chosen.extras, gates.released))
            finally:
                if gates.refused is None:  # else the build step said why nothing ran
                    steps.run("raw checks", gates.raw)  # a raw failure explains a failed build first
        except DbtFailed:
            # a loader that wrote during the build explains its failed tests (the related
            # marts' check sees a paper it never computed): say that, in one line
            fingerprint.require_unchanged(gates.released(), working)
            raise
        warming = warm_report()
        build_id = audit_and_publish(chosen, log, steps, gates, extras, gates.released())
    finally:
        gates.stop()
    warming.join()
    deliver(steps, exports, reports, venue, bom, report_dir is None, **report_options)
    return build_id


def warm_report() -> threading.Thread:
    """Import the report's modules (pandas among them) and compile its templates in a thread,
    while this process composes the publication (DuckDB, which lets go of the interpreter) and
    waits for the marts' verdict: 0.3-0.4 s the report step no longer pays. The caller joins it
    before the report is drawn."""

    def run() -> None:
        try:
            from paperrank.report import pages, render  # noqa: F401 - imported for the report step

            render.warm()
        except Exception:  # noqa: BLE001, S110 - the report step meets it again and says it there
            pass

    warming = threading.Thread(target=run, name="paperrank-report-warm", daemon=True)
    warming.start()
    return warming


def deliver(steps: Steps, exports: Path, reports: Path, venue: str, bom: bool, index: bool,
            **report_options: int) -> None:
    """The published build's CSVs, then its report page (with `index`, the report root's index
    too): each switched in whole, so a run killed here leaves each the previous build's or the
    new one's (the export reads the published DuckDB file, whichever engine built it)."""
    steps.run("export", lambda: export(exports, venue, bom))
    print(f"CSVs: {exports}/ (manifest.json lists them)", flush=True)
    pages = steps.run("experts' report", lambda: report(reports, venue, index, **report_options))
    for shown, page in pages:
        print(f"report for {shown}: {page}", flush=True)


def refresh_related(chosen: Settings, working: Path) -> None:
    """Related papers, sub-themes and the label audit for this build's venue, taxonomy and
    labels, computed only where their inputs changed (paperrank.related), when the build holds
    the extra `related`; before the raw fingerprint, which they do not touch (they write the
    `derived` schema)."""
    if "related" not in chosen.extras:
        return
    from paperrank.related.refresh import refresh

    extra = dict(chosen.extra)
    refresh(working, chosen.venue, taxonomy=chosen.taxonomy, label_model=chosen.label_model,
            related_papers=extra.get("related_papers"), say=lambda line: print(line, flush=True))


def report(report_dir: Path, venue: str, index: bool, **options: int) -> list[tuple[str, Path]]:
    """The venue's report page from the published warehouse (`options`: the page's, such as
    the pick quota); with `index`, the index page of the report root lists it beside the other
    venues' pages."""
    published = publish.published_path()
    pages = report_files.publish_report(published, report_dir, [venue], **options)
    outputs.remember(report_dir, venue)
    if index:
        report_files.write_index(outputs.report_root())
    return pages


def check_targets(export_dir: Path, report_dir: Path, venue: str) -> None:
    """The paths the run will write are the project's own, the venue's, and apart from each
    other, and the published file is free: refused before anything runs (PaperrankError, exit 2)."""
    published, working = publish.published_path(), db_path()
    outputs.check(export_dir, venue)
    outputs.check(report_dir, venue)
    publish.claim(published, create=False)
    export_files.claim(export_dir, create=False)
    report_files.claim(report_dir, create=False)
    paths = {"PAPERRANK_PUBLISHED_DB": published, "EXPORT_DIR": export_dir,
             "REPORT_DIR": report_dir, "PAPERRANK_DB": working}
    real = {name: versions.real(path) for name, path in paths.items()}
    names = list(real)
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            a, b = real[first], real[second]
            for one, other, x, y in ((first, second, a, b), (second, first, b, a)):
                inside = [x, x.with_name(f"{x.name}.versions")]
                if any(y == p or p in y.parents for p in inside) and one != "PAPERRANK_DB":
                    raise PaperrankError(f"{other}={paths[other]} is {'' if y == x else 'inside '}"
                                         f"{one}={paths[one]}; give each its own path")
    for name in ("PAPERRANK_PUBLISHED_DB", "EXPORT_DIR", "REPORT_DIR"):
        check_writable_folder(name, paths[name])
    if published.exists():
        check_writable_by_readers(published)


def check_writable_folder(name: str, target: Path) -> None:
    """The folder a target's versions go in can be written (a read-only disk or a folder
    without write permission is refused before the build, not after the publish)."""
    folder = versions.versions_dir(target)
    while not folder.exists() and folder.parent != folder:
        folder = folder.parent
    if not os.access(folder, os.W_OK):
        raise PaperrankError(f"{name}={target} cannot be written: {folder} is read-only or not "
                             "writable; choose another folder")


def check_writable_by_readers(published: Path) -> None:
    """An analyst's read-write connection to the published file blocks the export and the
    report (they open it read-only): refuse before publishing, with the one-line lock message."""
    open_duckdb(published, read_only=True).close()


def audit_and_publish(chosen: Settings, log: Path, steps: Steps, gates: Gates,
                      extras: tuple[str, ...], raw_before: fingerprint.Fingerprint | None = None) -> str:
    """Audit the working warehouse's marts of the ranking and `extras` and, when they pass,
    publish them; with `raw_before`, only when the raw layer is still as it was then.

    The gates' worker checks the marts on one core while this process composes the
    publication on the other (both read the working warehouse read-only); it is switched in
    only once the verdict has passed, and removed otherwise. Errors come in the order the
    steps had when they ran one after the other: a changed raw layer first, then the marts'
    verdict, then a build that cannot be published."""
    working = db_path()
    gates.start_marts()  # the worker fingerprints the raw layer again, then checks the marts

    def audited() -> publish.Staged:
        try:
            staged = publish.stage(working, publish.published_path(), engine=chosen.engine,
                                   extras=extras)
        except PaperrankError:
            gates.marts_verdict(raw_before)  # a changed raw layer, a failed audit explain it first
            raise
        try:
            gates.marts_verdict(raw_before)
        except BaseException:
            publish.discard(staged)
            raise
        return staged

    staged = steps.run("mart checks", audited)
    return announce(*steps.run("publish", lambda: publish.install(staged)))


def publish_build(steps: Steps, engine: str, extras: tuple[str, ...] | None) -> str:
    """Publish the audited build of the working warehouse (one atomic switch); its build id.
    The build must hold exactly `extras` (marts.build_settings.extras; None: whatever it holds),
    and only its own marts (marts.build_marts) are copied."""
    return announce(*steps.run("publish", lambda: publish.publish(
        db_path(), publish.published_path(), engine=engine, extras=extras)))


def announce(build_id: str, version: Path) -> str:
    """Say which build was published where; its build id."""
    print(f"published build {build_id} of {db_path()}: {publish.published_path()} -> {version.name}",
          flush=True)
    return build_id


def build(dbt: Dbt, engine: str, extras: tuple[str, ...],
          released: Callable[[], object] | None = None) -> tuple[str, ...]:
    """dbt build of the ranking and `extras` on `engine` (paperrank.core.build_parts selects their
    models and the tests that read only those); on Spark the DuckDB raw layer is copied into
    Spark first.  dbt starts, then `released` is waited for (the gates' worker reading the raw
    tables: dbt must not open the working warehouse before it let go).  Returns the extras
    built."""
    dbt.manifest  # noqa: B018 - dbt's start (import, saved parse), beside the worker's reads
    if released is not None:
        released()
    if engine == "spark":
        from paperrank.engines.spark import warehouse_dir
        from paperrank.engines.spark_raw import sync

        sync(db_path(), warehouse_dir())
    # `make test` runs the unit tests
    dbt.invoke("build", "--exclude-resource-type", "unit_test", *build_parts.build_selection(extras))
    return extras


def export(export_dir: Path, venue: str, bom: bool) -> str:
    """The venue's category CSVs from the published warehouse (the same export as ops'
    run-operation); the folder remembers its venue."""
    from paperrank.publish import category_csvs

    done = category_csvs.export(publish.published_path(), export_dir, venue, bom)
    outputs.remember(export_dir, venue)
    return done


class Steps:
    """Numbered progress lines: `[2/6] dbt build ... ok (5.1 s)`."""

    def __init__(self, total: int) -> None:
        self.total, self.done = total, 0

    def run(self, name: str, action: Callable[[], object]):
        self.done += 1
        print(f"[{self.done}/{self.total}] {name} ...", end="", flush=True)
        started = time.monotonic()
        try:
            result = action()
        except BaseException:
            print(" FAILED", flush=True)
            raise
        print(f" ok ({time.monotonic() - started:.1f} s)", flush=True)
        return result

