"""Write, audit, publish: analysts and spreadsheets only ever see a complete, checked build.

Each test first sets up the situation that used to break (a rebuild while analysts read, a
kill -9 mid-build, a NaN score, marts torn between two builds, a lock), then shows that the
published warehouse and the exports stay exactly one complete build, compared by content.

Two builds of one small venue serve every test: build A is the library's `small_built`
(conftest.py: ranked and published with top_n 5 and every extra) and build B is `rebuilt` below
(a copy of A ranked again with top_n 7, a category dropped and one extra, the rank uncertainty,
while an analyst's process reads the published file): a publication switches between builds of
other parts, so the marts A holds and B does not must go and come back whole too. Both are made
once per session, in-process; a test that writes takes a copy (`venue_copy`, `warehouse_copy`),
so the tests do not depend on each other's order.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import multiprocessing
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import library
import publish_steps
import pytest
from conftest import replicate_options
from project import (
    REPO,
    InProcessDbt,
    Project,
    copy_project,
    execute,
    rows,
    venue_copy,
    warehouse_copy,
)

pytestmark = pytest.mark.e2e
DROPPED = "Sustainable AI"
# build B's extras: one of A's, so that B's publication holds an extra's marts and drops the
# others' (and each build of B, clean or after a kill, costs less than half a build of every extra)
B_EXTRAS = "uncertainty"


# what analysts get: every relation of these schemas, and the loaders' rejected records
PUBLISHED = "schema_name in ('marts', 'seeds') or (schema_name, table_name) = " \
            "('staging', 'stg_raw__rejected_records')"


def content(db: Path) -> str:
    """Hash of the rows of every relation a publication holds (without the build's id and
    time, which differ between two runs of the same build)."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        digest = hashlib.sha256()
        relations = con.execute(
            "select distinct schema_name, table_name from duckdb_columns() "
            f"where {PUBLISHED} order by all").fetchall()
        assert {schema for schema, _ in relations} >= {"marts", "seeds", "staging"}, relations
        for schema, table in relations:
            columns = [r[0] for r in con.execute(
                "select column_name from duckdb_columns() where schema_name = ? and "
                "table_name = ? and column_name not in ('build_id', 'built_at') order by column_index",
                [schema, table]).fetchall()]
            rows = con.execute(f'select {", ".join(columns)} from "{schema}"."{table}" '
                               "order by all").fetchall()
            digest.update(f"{schema}.{table}:{columns}:{rows!r}".encode())
        return digest.hexdigest()
    finally:
        con.close()


def csvs(folder: Path) -> str:
    """Hash of the exported CSVs, after checking the manifest describes exactly these files."""
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    listed = {f["file"]: f for f in manifest["files"]}
    assert {p.name for p in folder.iterdir()} == set(listed) | {"manifest.json"}
    digest = hashlib.sha256()
    for name in sorted(listed):
        data = (folder / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == listed[name]["sha256"], name
        assert data.count(b"\n") == listed[name]["rows"] + 1, name
        digest.update(name.encode() + b"\0" + data)
    return digest.hexdigest()


def report_build(folder: Path) -> str:
    """The build id of the report the folder shows, after checking its manifest describes
    exactly its pages."""
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    listed = {page["file"]: page for page in manifest["pages"]}
    assert {p.name for p in folder.iterdir()} == set(listed) | {"manifest.json"}
    for name, page in listed.items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == page["sha256"], name
    return str(manifest["build_id"])


def build_id(db: Path) -> str:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("select min(build_id) from marts.build_settings").fetchone()[0]
    finally:
        con.close()


def state(project: Project) -> tuple[str, str]:
    """What analysts and spreadsheets see: the published marts and the CSVs, by content."""
    return content(project.published), csvs(project.scratch / "exports")


def rank_options(project: Project, top_n: int, extras: str = "all") -> list[str]:
    """`paperrank rank` of the small venue with `extras` (build B's are B_EXTRAS; a rank that
    fails in the ranking's own models or tests builds the ranking alone)."""
    return ["rank", "--top-n", str(top_n), "--profile", "iclr2026", "--extras", extras,
            *replicate_options(), "--export-dir", str(project.scratch / "exports"),
            "--report-dir", str(project.scratch / "report")]


READER = textwrap.dedent("""
    import json, sys, time, duckdb
    from pathlib import Path
    published, stop, report = sys.argv[1:4]

    def read(con):
        # one build's id, and whether its marts disagree (a read mixing two builds)
        build, top_n = con.execute(
            "select min(build_id), min(top_n) from marts.build_settings").fetchone()
        rows = con.execute('''
            select r.category, count(*), count(*) filter (where r.is_top_n),
                   (select count(*) from marts.category_top_n as t where t.category = r.category),
                   (select max(ranked_papers) from marts.category_summary as s
                    where s.category = r.category)
            from marts.paper_rankings as r group by r.category''').fetchall()
        mixed = any(top != min(size, top_n) or listed != top or summary != size
                    for _, size, top, listed, summary in rows)
        return build, mixed

    held = duckdb.connect(published, read_only=True)   # opened before the publish
    first_build, _ = read(held)
    print("reading", flush=True)
    seen, failed, mixed, reads = [], [], 0, 0
    while not Path(stop).exists():
        try:
            con = duckdb.connect(published, read_only=True)
            try:
                build, is_mixed = read(con)
            finally:
                con.close()
            reads += 1
            mixed += is_mixed
            if not seen or seen[-1] != build:
                seen.append(build)
        except Exception as error:
            failed.append(repr(error)[:300])
        time.sleep(0.01)
    held_build, held_mixed = read(held)
    json.dump({"reads": reads, "failed": failed, "mixed": mixed, "seen": seen,
               "held": [first_build, held_build, held_mixed]}, open(report, "w"))
""")


@pytest.fixture(scope="session")
def rebuilt(small_built: Project, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """Build B: a copy of build A, one category's labels deleted, ranked again with top_n 7 and
    B_EXTRAS (in-process) while an analyst's process reads the published file. What the reader
    saw is in scratch/reader.json, for test_analysts_never_fail_nor_mix_builds_while_rank_rebuilds."""

    def build(folder: Path) -> None:
        project = venue_copy(small_built, folder)
        # the next build drops a category, so the tests also see its CSV go
        execute(project.db, "delete from raw.paper_labels where category = ?", [DROPPED])
        stop, report = folder / "stop", folder / "reader.json"
        reader = subprocess.Popen([sys.executable, "-c", READER, str(project.published), str(stop),
                                   str(report)], stdout=subprocess.PIPE, text=True)
        try:
            assert reader.stdout is not None and reader.stdout.readline().strip() == "reading"
            time.sleep(0.5)
            project.cli(*rank_options(project, 7, B_EXTRAS))
            time.sleep(1.0)
        finally:
            stop.touch()
            reader.wait(timeout=60)

    folder = library.built(tmp_path_factory, "publish_rebuilt", build)
    return Project(folder / "warehouse.duckdb", folder)


def test_rank_publishes_the_audited_build_with_a_manifest(small_built: Project) -> None:
    published, exports = small_built.published, small_built.scratch / "exports"
    # rank prints the published path
    assert str(published) in (small_built.scratch / "rank.out").read_text(encoding="utf-8")
    assert published.is_symlink()
    assert content(published) == content(small_built.db)  # the marts, as audited
    manifest = json.loads((exports / "manifest.json").read_text(encoding="utf-8"))
    settings = manifest["build_settings"]
    assert settings["build_id"] == build_id(published)
    assert (settings["taxonomy"], settings["weight_set"], settings["top_n"]) == ("icml2026",
                                                                                 "article_2026", 5)
    assert settings["weight_contribution_mean"] == 0.4 and settings["built_at"]
    con = duckdb.connect(str(published), read_only=True)
    try:
        counts = dict(con.execute("select category_slug || '.csv', count(*) from marts.paper_rankings "
                                  "group by all").fetchall())
    finally:
        con.close()
    assert {f["file"]: f["rows"] for f in manifest["files"]} == counts
    assert len(counts) == 5  # every ranked category of the taxonomy: one of them goes in B
    assert report_build(small_built.scratch / "report") == build_id(published)


def test_analysts_never_fail_nor_mix_builds_while_rank_rebuilds(small_built: Project,
                                                                  rebuilt: Project) -> None:
    """Before: every analyst read failed during dbt build, and an open analyst connection made
    the build fail. Now analysts read the published file while the next build is made."""
    result = json.loads((rebuilt.scratch / "reader.json").read_text(encoding="utf-8"))
    before, after = build_id(small_built.published), build_id(rebuilt.published)
    assert result["failed"] == [] and result["mixed"] == 0
    assert result["reads"] > 10
    assert result["seen"] == [before, after] and before != after
    # the connection opened before the publish kept reading the old build, consistently
    assert result["held"] == [before, before, False]


def test_a_category_no_longer_ranked_leaves_no_file(rebuilt: Project) -> None:
    files = sorted(p.name for p in (rebuilt.scratch / "exports").iterdir())
    assert "sustainable-ai.csv" not in files and len(files) == 5  # 4 categories + manifest


def test_an_extra_no_longer_built_leaves_no_rows(small_built: Project, rebuilt: Project) -> None:
    """B holds the ranking and B_EXTRAS: the publication keeps none of the venue's rows in the
    marts of A's other extras (they come back with A in the rollback test)."""
    parts = {part for (part,) in rows(rebuilt.published, "select distinct part from marts.build_marts")}
    assert parts == {"ranking", *B_EXTRAS.split(",")}
    listed = {mart for (mart,) in rows(rebuilt.published, "select mart from marts.build_marts")}
    gone = {mart for (mart,) in rows(small_built.published, "select mart from marts.build_marts")} - listed
    had = {mart: rows(small_built.published, f'select count(*) from marts."{mart}"')[0][0] for mart in gone}
    assert "paper_rank_sets" in gone and had["paper_rank_sets"] > 0, had
    assert {mart: rows(rebuilt.published, f'select count(*) from marts."{mart}"')[0][0]
            for mart in gone} == dict.fromkeys(gone, 0)


def rolled_back(rebuilt: Project, scratch: Path) -> Project:
    """A copy of build B rolled back: A published and exported again, B built in the working
    warehouse (what a rank that is killed finds)."""
    project = venue_copy(rebuilt, scratch)
    result = project.cli("rollback", "--export-dir", str(scratch / "exports"),
                         "--report-dir", str(scratch / "report"))
    assert "->" in result.stdout
    return project


def test_rollback_publishes_the_previous_build_and_its_csvs(small_built: Project, rebuilt: Project,
                                                            tmp_path: Path) -> None:
    project = rolled_back(rebuilt, tmp_path / "venue")
    assert state(project) == state(small_built)
    assert (project.scratch / "exports" / "sustainable-ai.csv").exists()
    assert report_build(project.scratch / "report") == build_id(small_built.published)
    listing = project.cli("publications").stdout
    # A, B, and the publication the rollback composed (A's rows again, as a new file)
    assert listing.count("SYNTH 2026: build ") == 3 and "top_n=5" in listing and "top_n=7" in listing


def files(folder: Path, prefix: str) -> dict[str, tuple[int, int]]:
    """Every file and link under `folder` whose top-level name starts with `prefix` (a target
    and its versions folder), with its size and modification time."""
    found = {}
    for top in folder.glob(prefix + "*"):
        paths = [top]
        if top.is_dir() and not top.is_symlink():
            paths += [Path(root) / name for root, dirs, names in os.walk(top) for name in dirs + names]
        for path in paths:
            try:
                stat = path.lstat()
            except OSError:  # gone while we looked
                continue
            found[str(path)] = (stat.st_size, stat.st_mtime_ns)
    return found


@dataclass(frozen=True)
class KillPoint:
    """Where a run is killed, once it printed `step`: `delay` seconds later; or, with `appears`,
    as soon as that file exists (a glob under the venue's folder); or, with `writes`, at the
    step's first write, wherever it goes (any file or link under the venue's folder whose name
    starts with `writes` made or changed: a staged version, or a target written in place)."""

    step: str
    delay: float = 0.0
    appears: str = ""
    writes: str = ""

    def reached(self, printed: bytes, folder: Path, before: dict[str, tuple[int, int]]) -> bool:
        if self.step.encode() not in printed:
            return False
        if self.appears:
            return next(folder.glob(self.appears), None) is not None
        if self.writes:
            return files(folder, self.writes) != before
        return True


class Command:
    """`argv` in a process of its own, started in a session of its own so that a kill reaches
    every process it started (dbt's threads are its own; the gates' worker is a child)."""

    def __init__(self, project: Project, argv: Sequence[str]) -> None:
        self.process = subprocess.Popen(list(argv), cwd=REPO, env=project.env, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        self.printed = bytearray()
        self.reader = threading.Thread(target=self._drain, daemon=True)
        self.reader.start()

    def _drain(self) -> None:
        assert self.process.stdout is not None
        while chunk := os.read(self.process.stdout.fileno(), 4096):
            self.printed.extend(chunk)

    def output(self) -> bytes:
        return bytes(self.printed)

    def running(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):  # it ended since running() asked
            os.killpg(self.process.pid, signal.SIGKILL)

    def end(self) -> int:
        code = self.process.wait(timeout=600)
        self.reader.join(timeout=60)
        return code


class ForkedSteps:
    """The steps after the audit (publish_steps.run) in a child forked from `forks`, the fork
    server that imported them: a process of its own that runs only those steps, what it prints
    in a file beside the venue's folder."""

    def __init__(self, forks: Any, project: Project) -> None:
        self.printed = project.scratch.with_name(project.scratch.name + ".out")
        self.printed.unlink(missing_ok=True)
        self.process = forks.Process(target=publish_steps.run, args=(
            project.env, str(REPO), str(project.scratch / "exports"), str(project.scratch / "report"),
            str(self.printed)))
        self.process.start()

    def output(self) -> bytes:
        try:
            return self.printed.read_bytes()
        except FileNotFoundError:  # not opened yet
            return b""

    def running(self) -> bool:
        return bool(self.process.is_alive())

    def kill(self) -> None:
        self.process.kill()  # SIGKILL

    def end(self) -> int:
        self.process.join(timeout=600)
        return int(self.process.exitcode)


def run_and_kill(project: Project, start: Callable[[], Command | ForkedSteps],
                 point: KillPoint) -> tuple[bool, str]:
    """Start a run on `project` (`start()`) and kill -9 it at `point`: (killed, what it printed).
    Killed is the run ended by SIGKILL; a run that ended before the kill must have succeeded."""
    before = files(project.scratch, point.writes) if point.writes else {}
    run = start()
    while run.running() and not point.reached(run.output(), project.scratch, before):
        time.sleep(0.001)
    time.sleep(point.delay)
    if run.running():
        run.kill()
    code = run.end()
    output = run.output().decode(errors="replace")
    killed = code == -signal.SIGKILL
    assert killed or code == 0, f"exited {code}:\n{output[-3000:]}"
    return killed, output


def test_kill_9_during_dbt_build_leaves_the_previous_build(small_built: Project, rebuilt: Project,
                                                            tmp_path: Path) -> None:
    """Before: a kill during dbt build left a shortlist of papers no longer ranked. Killed while
    dbt writes the marts (paper_rankings new, the shortlist not yet), `rank` leaves build A
    published and exported; run again, it publishes exactly build B."""
    project = rolled_back(rebuilt, tmp_path / "venue")
    # `paperrank rank` as a process of its own: a kill -9 of the process is what is tested
    rank = [sys.executable, "-m", "paperrank", *rank_options(project, 7, B_EXTRAS)]
    killed, output = run_and_kill(project, lambda: Command(project, rank), KillPoint(
        "[1/6] dbt build", 0.2, appears="target/run/paperrank/models/marts/ranking/paper_rankings.sql"))
    assert killed and "[2/6]" not in output, output[-2000:]
    assert state(project) == state(small_built)
    project.cli(*rank_options(project, 7, B_EXTRAS))
    assert state(project) == state(rebuilt)


@pytest.fixture(scope="module")
def forks() -> Any:
    """A multiprocessing fork server that imported what the steps import once: each run of the
    steps after the audit is a child forked from it, a process of its own to kill, without a
    Python start-up and its imports each."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(publish_steps.PRELOAD)
    return context


def steps(forks: Any, project: Project) -> Callable[[], ForkedSteps]:
    """The steps of `rank` after its audit, alone, on `project` (publish_steps.py)."""
    return lambda: ForkedSteps(forks, project)


# the steps after the audit, as publish_steps.py numbers them: each point kills one run
AFTER_THE_AUDIT = [
    KillPoint("[1/3] publish"),
    KillPoint("[1/3] publish", writes="published.duckdb"),  # the publication half-copied
    KillPoint("[1/3] publish", 0.15),
    KillPoint("[2/3] export"),
    KillPoint("[2/3] export", writes="exports"),  # the first CSV half-written
    KillPoint("[2/3] export", 0.3),
    KillPoint("[3/3] experts' report"),
    KillPoint("[3/3] experts' report", writes="report"),
    KillPoint("[3/3] experts' report", 0.1),
]


def test_kill_9_while_publishing_exporting_or_reporting_leaves_a_whole_build(
        small_built: Project, rebuilt: Project, forks: Any, tmp_path: Path) -> None:
    """Before: a kill during the export left some CSVs new and some old. Build B is built and
    audited in the working warehouse, A published: each point kills the steps that follow the
    audit (publish_steps.py, `paperrank.pipeline.rank`'s own) on a fresh copy of that, and
    the published warehouse, the CSVs and the report are each exactly A or exactly B."""
    ready = rolled_back(rebuilt, tmp_path / "ready")
    previous, new = state(small_built), state(rebuilt)
    builds = {build_id(small_built.published), build_id(rebuilt.published)}
    missed = []
    for number, point in enumerate(AFTER_THE_AUDIT):
        project = venue_copy(ready, tmp_path / f"run{number}")
        killed, output = run_and_kill(project, steps(forks, project), point)
        if not killed:
            missed.append((point, output[-400:]))
        published, exported = state(project)
        assert published in (previous[0], new[0]), point
        assert exported in (previous[1], new[1]), point
        assert report_build(project.scratch / "report") in builds, point
        shutil.rmtree(project.scratch)  # not seven copies of a venue at once on the disk
    assert len(missed) <= 2, missed  # the points are hit, not run past
    project = venue_copy(ready, tmp_path / "whole")
    killed, _ = run_and_kill(project, steps(forks, project), KillPoint("never printed"))
    assert not killed and state(project) == new
    assert report_build(project.scratch / "report") == build_id(project.published)


def test_a_failed_audit_publishes_nothing(small_built: Project, tmp_path: Path) -> None:
    """Before: a NaN rating ranked #1 and stayed visible after a dbt test failed. The ranking's
    own tests fail it, so the rank builds the ranking alone."""
    project = venue_copy(small_built, tmp_path / "venue")
    before = state(project)
    execute(project.db, "update raw.reviews set rating = 'nan'::double where review_id = "
                        "(select min(review_id) from raw.reviews)")
    result = project.cli(*rank_options(project, 7, extras="none"), check=False)
    assert result.returncode != 0
    assert "FAILED" in result.stdout
    assert state(project) == before


def test_marts_torn_between_two_builds_are_not_published(small_built: Project, tmp_path: Path) -> None:
    """What a kill during dbt build left: paper_rankings new, the shortlist old."""
    project = venue_copy(small_built, tmp_path / "venue")
    before = state(project)
    dbt = InProcessDbt(project)
    # int_papers_categorized and int_papers_ranked (which the mart paper_rankings shows) are
    # tables: rebuild them too, from the repaired raw layer
    dbt("run", "--select", "int_papers_categorized int_papers_ranked paper_rankings",
        "--vars", "{top_n: 3}")
    checked = dbt("test", "--select", "tag:marts_agree", check=False)
    assert checked.returncode != 0
    assert re.search(r"FAIL \d+ marts_agree__category_top_n_is_the_top_n_of_paper_rankings",
                     checked.stdout), checked.stdout[-3000:]
    result = project.cli("publish", "--top-n", "3", check=False)
    assert result.returncode != 0 and "the marts disagree, nothing was published" in result.stderr
    assert state(project) == before


def test_a_violated_agreement_rule_fails_rank_naming_it(small_built: Project, tmp_path: Path) -> None:
    """The marts-agree rules are dbt tests that `dbt build` runs: a shortlist that drops each
    category's first paper fails `rank` with exit 1, naming the rule, and publishes nothing.
    The shortlist and the rule are the ranking's, so the rank builds the ranking alone."""
    root = copy_project(tmp_path / "project")
    model = root / "models" / "marts" / "ranking" / "category_top_n.sql"
    text = model.read_text(encoding="utf-8")
    assert "    where is_top_n\n" in text
    model.write_text(text.replace("    where is_top_n\n", "    where is_top_n and category_rank > 1\n"),
                     encoding="utf-8")
    broken = warehouse_copy(small_built, tmp_path / "scratch", root=root)
    result = broken.cli(*rank_options(broken, 5, extras="none"), check=False)
    assert result.returncode == 1, result.stdout[-2000:] + result.stderr[-2000:]
    assert "marts_agree__category_top_n_is_the_top_n_of_paper_rankings" in result.stdout + result.stderr
    assert not broken.published.exists() and not (broken.scratch / "exports").exists()


LOCKER = ("import duckdb, sys, time; c = duckdb.connect(sys.argv[1], read_only=True); "
          "print('ok', flush=True); time.sleep(120)")


def test_a_lock_held_by_another_process_is_one_line(small_built: Project, tmp_path: Path) -> None:
    # through make: what its targets print is the point (one line, no make or dbt noise); each
    # is refused before dbt starts
    project = warehouse_copy(small_built, tmp_path)
    holder = subprocess.Popen([sys.executable, "-c", LOCKER, str(project.db)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ok"
        for target in ("rank", "build", "docs"):
            result = project.run("make", "--no-print-directory", target,
                                 f"EXPORT_DIR={tmp_path / 'exports'}",
                                 f"REPORT_DIR={tmp_path / 'report'}", check=False)
            assert result.returncode != 0, target
            errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
            assert len(errors) == 1, result.stderr
            assert f"is in use by process {holder.pid} (" in errors[0]
            assert f"kill {holder.pid}" in errors[0]
            assert "Traceback" not in result.stderr + result.stdout
    finally:
        holder.kill()
        holder.wait()


def test_read_only_commands_refuse_a_missing_warehouse(tmp_path: Path) -> None:
    # through make: the settings given on make's command line are what reaches the commands
    project = Project(tmp_path / "warehouse.duckdb", tmp_path)
    missing, unpublished = tmp_path / "nothing.duckdb", tmp_path / "unpublished.duckdb"
    result = project.run("make", "--no-print-directory", "docs", f"PAPERRANK_DB={missing}",
                         check=False)
    assert result.returncode != 0 and f"no warehouse at {missing}" in result.stderr
    result = project.run("make", "--no-print-directory", "export",
                         f"PAPERRANK_PUBLISHED_DB={unpublished}",
                         f"EXPORT_DIR={tmp_path / 'x'}", check=False)
    assert result.returncode != 0 and f"no published warehouse at {unpublished}" in result.stderr
    assert not missing.exists() and not unpublished.exists() and not (tmp_path / "x").exists()
