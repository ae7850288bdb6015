"""`paperrank rank`: everything after loading, in one process (write, audit, publish).


    dbt build (tests included: the marts-agree rules are dbt tests, tests/singular/) | raw checks
    -> mart checks -> publish -> export -> the experts' report

Everything up to the audit writes and reads the working warehouse (PAPERRANK_DB) only.  The
published warehouse (PAPERRANK_PUBLISHED_DB) changes in one atomic step, and only when every
check passed; the CSVs are then exported from it.  A failed or killed run leaves the
published warehouse and the exports as they were.  Each step prints one line; the quality
reports go to the log (and to the screen when a check fails), dbt's full log to its log folder.
The quality gates run in a child process beside dbt (`paperrank.pipeline.gates`): the raw tables are
read before dbt starts and checked while it builds, so great-expectations' start-up costs no
wall time; nothing is published unless every verdict passed.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import click

from paperrank.cli.options import settings_options
from paperrank.core import config
from paperrank.core.errors import PaperrankError
from paperrank.core.warehouse import db_path, open_duckdb
from paperrank.engines import dbt_target
from paperrank.pipeline import settings
from paperrank.pipeline.dbt import Dbt
from paperrank.pipeline.gates import Gates
from paperrank.pipeline.settings import Settings
from paperrank.pipeline.summary import category_summary
from paperrank.publish import export_files, fingerprint, publish, report_files, versions
from paperrank.publish.locks import check_writable

DEFAULT_EXPORT_DIR = config.DEFAULT_EXPORT_DIR
DEFAULT_REPORT_DIR = config.DEFAULT_REPORT_DIR


def default_log() -> Path:
    """pipeline.log beside dbt.log (in DBT_LOG_PATH or logs/), read when a command runs: a
    process that runs several commands (a test session, a bench) may change the variable."""
    return config.dbt_log_path() / "pipeline.log"


@click.command("rank", help=__doc__)
@settings_options
@click.option("--export-dir", type=click.Path(path_type=Path), default=DEFAULT_EXPORT_DIR,
              help=f"folder of the category CSVs (default {DEFAULT_EXPORT_DIR})")
@click.option("--report-dir", type=click.Path(path_type=Path), default=DEFAULT_REPORT_DIR,
              help=f"folder of the experts' report pages (default {DEFAULT_REPORT_DIR})")
@click.option("--bom", is_flag=True, help="start each CSV with a UTF-8 byte order mark (for Excel)")
@click.option("--log", type=click.Path(path_type=Path), default=default_log,
              help="file the quality reports are appended to "
                   "(default: pipeline.log beside dbt.log, in DBT_LOG_PATH or logs/)")
def command(chosen: Settings, export_dir: Path, report_dir: Path, bom: bool, log: Path) -> None:
    rank(chosen, export_dir, bom, log, report_dir)
    print(category_summary(publish.published_path()), flush=True)


def rank(chosen: Settings, export_dir: Path, bom: bool, log: Path,
         report_dir: Path = DEFAULT_REPORT_DIR) -> str:
    """Run the back half; return the published build id.

    Before anything runs: every setting is checked against the seeds and the raw layer, the
    published warehouse, the export and the report folders are checked to be the project's
    own (and apart), and the published file must not be held by another process.  The raw
    layer's fingerprint is taken before its checks read it and compared after the build."""
    working = db_path()
    if not working.exists():
        raise PaperrankError(f"no working warehouse at {working}; load data first "
                                "(paperrank ingest ..., paperrank classify ...)")
    settings.check(chosen, working, one_venue=True)  # every setting, before anything runs
    check_targets(export_dir, report_dir)
    check_writable(working)
    log.parent.mkdir(parents=True, exist_ok=True)
    raw_before = fingerprint.take(working)
    gates = Gates(chosen, log)  # raw tables read now; checked beside dbt
    try:
        dbt = Dbt(chosen.dbt_vars(), target=dbt_target(chosen.engine))
        steps = Steps(6)
        try:
            steps.run("dbt build", lambda: build(dbt, chosen.engine))
        finally:
            steps.run("raw checks", gates.raw)  # a raw failure explains a failed build first
        fingerprint.require_unchanged(raw_before, working)
        build_id = audit_and_publish(chosen, log, steps, gates)
    finally:
        gates.stop()
    deliver(steps, export_dir, report_dir, chosen.venue, bom)
    return build_id


def deliver(steps: Steps, export_dir: Path, report_dir: Path, venue: str | None, bom: bool) -> None:
    """The published build's CSVs, then its report: each switched in whole, so a run killed
    here leaves each the previous build's or the new one's (the export reads the published
    DuckDB file, whichever engine built it)."""
    steps.run("export", lambda: export(export_dir, venue, bom))
    print(f"CSVs: {export_dir}/ (manifest.json lists them)", flush=True)
    pages = steps.run("experts' report", lambda: report_files.publish_report(
        publish.published_path(), report_dir, [venue] if venue else None))
    for shown, page in pages:
        print(f"report for {shown}: {page}", flush=True)


def check_targets(export_dir: Path, report_dir: Path) -> None:
    """The paths the run will write are the project's own and apart from each other, and the
    published file is free: refused before anything runs (PaperrankError, exit 2)."""
    published, working = publish.published_path(), db_path()
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


def audit_and_publish(chosen: Settings, log: Path, steps: Steps, gates: Gates) -> str:
    """Audit the working warehouse's marts and, when they pass, publish them."""
    steps.run("mart checks", gates.marts)
    return publish_build(steps, chosen.engine)


def publish_build(steps: Steps, engine: str) -> str:
    """Publish the audited build of the working warehouse (one atomic switch); its build id."""
    working, published = db_path(), publish.published_path()
    build_id, version = steps.run("publish", lambda: publish.publish(working, published,
                                                                       engine=engine))
    print(f"published build {build_id} of {working}: {published} -> {version.name}", flush=True)
    return build_id


def build(dbt: Dbt, engine: str) -> None:
    """dbt build on `engine`; on Spark the DuckDB raw layer is copied into Spark first."""
    if engine == "spark":
        from paperrank.engines.spark import warehouse_dir
        from paperrank.engines.spark_raw import sync

        sync(db_path(), warehouse_dir())
    dbt.invoke("build", "--exclude-resource-type", "unit_test")  # `make test` runs those


def export(export_dir: Path, venue: str | None, bom: bool) -> str:
    """The category CSVs of the published warehouse (the same export as ops' run-operation)."""
    from paperrank.publish import category_csvs

    return category_csvs.export(publish.published_path(), export_dir, venue, bom)


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

