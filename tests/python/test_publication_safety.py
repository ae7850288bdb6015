"""Publication safety on a degenerate venue: two venues of one paper each, whose
names give the same report file name (`SYNTH 2026`, `Synth-2026`).

- several venues without VENUE: `make rank` used to publish, then fail at the export;
- a one-paper venue published and exported, then the report crashed (`max() arg is an empty
  sequence`); the report was rewritten in place (a full disk left a truncated page) and
  rollback left the withdrawn build's page up;
- a loader committing after the raw checks read the tables got its rows published unchecked;
- an analyst's read-write connection to the published file, a truncated working warehouse
  and a full disk ended in tracebacks or DuckDB's raw lock text, and a lock taken by another
  process between the lock check and dbt's start in 230 lines of dbt's traceback.

The venue is loaded (`degenerate_loaded`) and built (`degenerate`) once per session, library
entries: the refusals before dbt read the loaded one, the rest the built one; each test that writes
runs its pipelines in-process on a copy of it. A subprocess stays where the process itself is
the point: a file-size limit or a read-only mount holds for a whole process.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import duckdb
import library
import pytest
from conftest import replicate_options
from project import (
    BIN,
    REPO,
    InProcessDbt,
    Project,
    as_build,
    dbt_not_started,
    execute,
    few_replicates,
    rows,
    venue_copy,
    warehouse_copy,
)
from test_paperlists import paper, write_json

from paperrank.core.errors import PaperrankError
from paperrank.core.steps import Steps
from paperrank.publish import delivery, report_files, versions

pytestmark = pytest.mark.e2e  # runs rank / publish pipelines

VENUES = ("SYNTH 2026", "Synth-2026")


@pytest.fixture(scope="session")
def degenerate_loaded(small_loaded: Project, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """The library's small venue cut down to two papers, one in each of two venues whose report
    pages share a name, not built: for the refusals that come before dbt. Once per session."""

    def load(folder: Path) -> None:
        project = warehouse_copy(small_loaded, folder)
        con = duckdb.connect(str(project.db))
        try:
            keep = [r[0] for r in con.execute(
                "select p.paper_id from raw.papers p join raw.paper_labels l using (paper_id) "
                "where p.is_accepted and l.category = 'Agentic AI' and lower(coalesce(p.primary_area, "
                "'')) <> 'datasets and benchmarks' and p.paper_id in (select paper_id from raw.reviews) "
                "order by 1 limit 2").fetchall()]
            for (table,) in con.execute("select distinct table_name from duckdb_columns() where "
                                        "schema_name = 'raw' and column_name = 'paper_id'").fetchall():
                con.execute(f"delete from raw.{table} where not list_contains(?, paper_id)", [keep])
            con.execute("update raw.papers set venue = ? where paper_id = ?", [VENUES[1], keep[1]])
        finally:
            con.close()

    folder = library.built(tmp_path_factory, "degenerate_loaded", load)
    return Project(folder / "warehouse.duckdb", folder)


@pytest.fixture(scope="session")
def degenerate(degenerate_loaded: Project, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """That venue ranked and published (venue SYNTH 2026, top_n 5, few replicates), in-process,
    once per session; what rank printed is in scratch/rank.out. Tests that write take a copy
    (`venue_copy`, `warehouse_copy`)."""

    def build(folder: Path) -> None:
        ranked = rank(warehouse_copy(degenerate_loaded, folder), "--top-n", "5")
        (folder / "rank.out").write_text(ranked.stdout, encoding="utf-8")

    folder = library.built(tmp_path_factory, "degenerate_built", build)
    return Project(folder / "warehouse.duckdb", folder)


def rank(project: Project, *extra: str, venue: str = VENUES[0], check: bool = True):
    """`paperrank rank` on `project`, in this process."""
    return project.cli("rank", "--profile", "iclr2026", *replicate_options(),
                       "--export-dir", str(project.scratch / "exports"), "--report-dir",
                       str(project.scratch / "report"), "--venue", venue, *extra, check=check)


def single_line(result, code: int = 2) -> str:
    assert result.returncode == code, result.stdout[-3000:] + result.stderr[-3000:]
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def page_hash(report: Path) -> str:
    return hashlib.sha256((report / "synth-2026.html").read_bytes()).hexdigest()


def test_several_venues_without_venue_are_refused_before_anything(degenerate_loaded: Project,
                                                                    tmp_path: Path) -> None:
    project = warehouse_copy(degenerate_loaded, tmp_path)  # nothing built nor published here yet
    with dbt_not_started(project):
        line = single_line(rank(project, venue="", check=False))
    assert "raw.papers holds 2 venues (SYNTH 2026, Synth-2026)" in line and "set VENUE" in line
    assert not project.published.exists() and not (project.scratch / "exports").exists()


def test_a_one_paper_venue_publishes_exports_and_reports_saying_why(degenerate: Project) -> None:
    printed = (degenerate.scratch / "rank.out").read_text(encoding="utf-8")
    report = degenerate.scratch / "report"
    assert f"report for SYNTH 2026: {report / 'synth-2026.html'}" in printed
    page = (report / "synth-2026.html").read_text(encoding="utf-8")
    assert "every z-score is 0, so only the composite is drawn" in page
    version = versions.current(report)
    manifest = json.loads((version / "manifest.json").read_text(encoding="utf-8"))
    assert [p["venue"] for p in manifest["pages"]] == ["SYNTH 2026"]
    assert manifest["build_id"] == rows(degenerate.published,
                                        "select min(build_id) from marts.build_settings")[0][0]


def test_report_pages_that_would_collide_are_refused(degenerate: Project, tmp_path: Path) -> None:
    project = warehouse_copy(degenerate, tmp_path / "venue")
    # the models of both venues (no venue var), which the report pages are drawn from
    InProcessDbt(project)("run", "--vars", few_replicates(top_n=5))
    both = tmp_path / "both.duckdb"
    with project.environment():
        delivery.deliver(project.db, published=both)
        with pytest.raises(PaperrankError, match="would share the report page synth-2026.html"):
            report_files.publish_report(both, tmp_path / "report")
    assert not (tmp_path / "report").exists()  # nothing half-written is switched in


def test_a_full_disk_leaves_the_previous_report(degenerate: Project, tmp_path: Path) -> None:
    # a process of its own: the file size limit holds for a whole process
    degenerate = venue_copy(degenerate, tmp_path / "venue")
    report = degenerate.scratch / "report"
    before, version = page_hash(report), versions.current(report)
    code = textwrap.dedent(f"""
        import resource, signal, sys
        from pathlib import Path
        from paperrank.core.errors import PaperrankError
        from paperrank.publish import report_files
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))  # every file past 4 KB: EFBIG
        try:
            report_files.publish_report(Path({str(degenerate.published)!r}), Path({str(report)!r}))
        except PaperrankError as error:
            print(error, file=sys.stderr)
            sys.exit(2)
    """)
    line = single_line(degenerate.run(sys.executable, "-c", code, check=False))
    assert line.startswith(f"cannot write {report} (the report of every venue): File too large"), line
    assert "the previous report is unchanged" in line
    assert page_hash(report) == before and versions.current(report) == version
    assert not list(versions.versions_dir(report).glob(".tmp-*"))


def test_rollback_brings_back_the_report_of_the_build_it_restores(degenerate: Project,
                                                                    tmp_path: Path) -> None:
    project = venue_copy(degenerate, tmp_path / "venue")
    report = project.scratch / "report"
    first = page_hash(report)
    # a second build published, exported and drawn through the publish door (as
    # publish_steps.py runs it): the library's build under another build id, so no second dbt
    # build, which this test does not look at
    as_build(project.db, "build-2")
    with project.environment():
        destination = delivery.Destination.checked(VENUES[0], project.scratch / "exports", report)
        delivery.deliver(project.db, destination, steps=Steps(3))
    assert page_hash(report) != first  # another build id on the page
    result = project.cli("rollback", "--export-dir", str(project.scratch / "exports"),
                         "--report-dir", str(report))
    assert "report for SYNTH 2026" in result.stdout
    assert page_hash(report) == first


def test_a_page_that_cannot_be_drawn_leaves_the_csvs_of_the_same_build(
        degenerate: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The door writes the venue's CSVs and page before it switches either: when the page
    fails, the CSVs stay those of the build the page shows, and no temporary folder is left."""
    from paperrank.report import pages

    project = venue_copy(degenerate, tmp_path / "venue")
    exports, report = project.scratch / "exports", project.scratch / "report"
    before = {link: versions.current(link) for link in (exports, report)}
    as_build(project.db, "build-2")

    def fails(*_args: object, **_options: object) -> None:
        raise PaperrankError("the page cannot be drawn")

    monkeypatch.setattr(pages, "write_reports", fails)
    with project.environment(), pytest.raises(PaperrankError, match="the page cannot be drawn"):
        destination = delivery.Destination.checked(VENUES[0], exports, report)
        delivery.deliver(project.db, destination, steps=Steps(3))
    assert {link: versions.current(link) for link in (exports, report)} == before
    for link in (exports, report):
        assert not list(versions.versions_dir(link).glob(".tmp-*"))


@pytest.mark.parametrize("extras", ["all", "none"])
def test_a_loader_committing_after_the_raw_checks_read_blocks_the_publish(
        degenerate: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, extras: str) -> None:
    """A loader commits once the gates' worker has read the raw tables, before dbt opens the
    file: with every extra the build's related-papers check fails on the paper it never
    computed, and the failure says the raw layer changed; with none the build passes and the
    audit's second fingerprint (taken by the worker beside the publication's composing) says
    it. Nothing is published either way."""
    from paperrank.cli import run
    from paperrank.pipeline import gates

    project = venue_copy(degenerate, tmp_path / "venue")
    before = versions.current(project.published)
    extra = tmp_path / "extra.json"
    write_json(extra, [paper("late-1")])
    original = gates.Gates.released
    committed: list[bool] = []

    def read_then_a_loader_commits(self: gates.Gates) -> object:
        taken = original(self)  # the gates' worker has read the tables and let go of the file
        if not committed:  # once, before dbt opens the file
            committed.append(True)
            assert run(["ingest", "file", str(extra), "--venue", "SYNTH 2026", "--profile", "iclr2026"]) == 0
        return taken

    monkeypatch.setattr(gates.Gates, "released", read_then_a_loader_commits)
    result = rank(project, "--top-n", "5", "--extras", extras, "--log", str(tmp_path / "log.txt"),
                  check=False)
    line = result.stderr.strip().splitlines()[-1]
    assert result.returncode == 2, result.stdout[-2000:] + result.stderr[-2000:]
    # with none, the build passed and the audit's step said it; with every extra, the build's
    assert ("[3/6] mart checks ... FAILED" in result.stdout) == (extras == "none"), result.stdout
    assert "the raw layer changed during the build: raw.loads" in line and "raw.papers (2 -> 3 rows)" in line
    assert versions.current(project.published) == before  # nothing published


def test_a_failed_audit_publishes_nothing_and_leaves_no_file(degenerate: Project,
                                                              tmp_path: Path) -> None:
    """The publication is composed only on the marts' verdict: a failed check leaves the
    published warehouse as it was and no file behind (`paperrank publish`, which audits as
    `make rank` does)."""
    project = venue_copy(degenerate, tmp_path / "venue")
    as_build(project.db, "build-2")  # a build that would publish as a new version
    # a z-score no dbt test of the audit reads (the marts-agree rules run first, and stop
    # at a NaN composite): only the mart checks see it
    execute(project.db, "update intermediate.int_papers_ranked set z_confidence_mean = 'infinity'::double "
                        "where paper_id = (select min(paper_id) from intermediate.int_papers_ranked)")
    before = versions.current(project.published)
    log = tmp_path / "pipeline.log"
    result = project.cli("publish", "--profile", "iclr2026", *replicate_options(), "--top-n", "5",
                         "--venue", VENUES[0], "--log", str(log), check=False)
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-3000:]
    assert "the marts quality checks failed" in result.stderr and "nothing was published" in result.stderr
    assert "[3/4] mart checks ..." in result.stdout and "[4/4] publish" not in result.stdout
    assert "z_confidence_mean=inf" in log.read_text(encoding="utf-8")
    assert versions.current(project.published) == before
    assert not list(versions.versions_dir(project.published).glob(".tmp-*"))


HOLDER = ("import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); print('held', flush=True); "
          "time.sleep(120)")


@pytest.mark.parametrize("command", ["rank", "build"])
def test_a_lock_lost_in_a_race_is_one_line(degenerate: Project, tmp_path: Path, command: str,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process takes the working warehouse after the lock check passed and before dbt
    opens it: one line naming that process and exit 2, not dbt's 230-line traceback first."""
    project = venue_copy(degenerate, tmp_path / "venue")
    before = versions.current(project.published)
    module = importlib.import_module("paperrank.pipeline.rank" if command == "rank"
                                     else "paperrank.pipeline.run_dbt")
    checked = module.check_writable
    holders: list[subprocess.Popen[str]] = []

    def checked_then_taken(path: Path) -> None:
        checked(path)
        holders.append(subprocess.Popen([sys.executable, "-c", HOLDER, str(path)],
                                        stdout=subprocess.PIPE, text=True))
        assert holders[0].stdout is not None and holders[0].stdout.readline().strip() == "held"

    monkeypatch.setattr(module, "check_writable", checked_then_taken)
    try:
        if command == "rank":
            result = rank(project, "--top-n", "5", check=False)
        else:
            result = project.cli("build", "--venue", "SYNTH 2026", "--profile", "iclr2026",
                                 "--top-n", "5", *replicate_options(), check=False)
    finally:
        for holder in holders:
            holder.kill()
            holder.wait()
    assert result.returncode == 2, result.stdout[-3000:] + result.stderr[-3000:]
    assert len(holders) == 1
    pid = holders[0].pid
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert f"is in use by process {pid}" in lines[0] and f"kill {pid}" in lines[0]
    assert "Traceback" not in result.stdout + result.stderr
    assert "Could not set lock" not in result.stdout, result.stdout[-3000:]
    assert versions.current(project.published) == before


def test_an_analysts_read_write_connection_is_refused_before_publishing(degenerate: Project,
                                                                        tmp_path: Path) -> None:
    project = venue_copy(degenerate, tmp_path / "venue")
    before = versions.current(project.published)
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import sys, time, duckdb
        con = duckdb.connect({str(project.published)!r})
        print("open", flush=True)
        time.sleep(120)
    """)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        with dbt_not_started(project):
            line = single_line(rank(project, "--top-n", "3", check=False))
        assert str(before) in line or "published.duckdb" in line
        assert f"process {holder.pid}" in line or str(holder.pid) in line
        assert versions.current(project.published) == before
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()


def test_a_truncated_working_warehouse_is_one_line(degenerate_loaded: Project, tmp_path: Path) -> None:
    broken = tmp_path / "warehouse.duckdb"
    broken.write_bytes(degenerate_loaded.db.read_bytes()[:5000])
    project = Project(broken, tmp_path)
    with dbt_not_started(project):
        result = project.cli("rank", "--venue", VENUES[0], "--export-dir", str(tmp_path / "e"),
                             "--report-dir", str(tmp_path / "r"), check=False)
    line = single_line(result)
    assert f"the working warehouse {broken} cannot be opened" in line


@pytest.mark.parametrize("refused", ["csv", "manifest"])
def test_a_full_disk_while_exporting_leaves_the_previous_csvs(degenerate: Project, tmp_path: Path,
                                                              refused: str) -> None:
    """`paperrank export` under a file-size limit (the kernel refuses a write past the limit:
    a CSV's first bytes, or the manifest's once every CSV is written): one line naming the
    folder, the previous CSVs as they were, no temporary folder left."""
    degenerate = venue_copy(degenerate, tmp_path / "venue")
    exports = degenerate.scratch / "exports"
    before = {p.name: p.read_bytes() for p in versions.current(exports).iterdir()}
    largest_csv = max(len(data) for name, data in before.items() if name.endswith(".csv"))
    assert len(before[versions.MANIFEST]) > largest_csv + 64  # so the limit can fall between
    limit = 64 if refused == "csv" else largest_csv + 64
    code = textwrap.dedent(f"""
        import resource, signal, sys
        from paperrank.cli import run
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))
        sys.exit(run(["export", "--export-dir", {str(exports)!r}, "--venue", {VENUES[0]!r}]))
    """)
    result = degenerate.run(sys.executable, "-c", code, check=False)
    line = single_line(result)
    assert line.startswith(f"error: cannot write {exports}") and "File too large" in line, line
    assert "the previous CSVs are unchanged" in line
    assert {p.name: p.read_bytes() for p in versions.current(exports).iterdir()} == before
    assert not list(versions.versions_dir(exports).glob(".tmp-*"))


def test_a_full_disk_while_publishing_is_one_line_and_switches_nothing(degenerate: Project,
                                                                       tmp_path: Path) -> None:
    # a process of its own: the file size limit holds for a whole process
    degenerate = venue_copy(degenerate, tmp_path / "venue")
    before = versions.current(degenerate.published)
    code = textwrap.dedent(f"""
        import resource, signal, sys
        from pathlib import Path
        from paperrank.core.errors import PaperrankError
        from paperrank.publish import delivery
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536))
        try:
            delivery.deliver(Path({str(degenerate.db)!r}), published=Path({str(degenerate.published)!r}))
        except PaperrankError as error:
            print(error, file=sys.stderr)
            sys.exit(2)
    """)
    line = single_line(degenerate.run(sys.executable, "-c", code, check=False))
    assert "nothing was switched" in line
    assert versions.current(degenerate.published) == before
    assert not list(versions.versions_dir(degenerate.published).glob(".tmp-*"))


# -- a read-only disk -----------------------------------------------------------------------------
# A real read-only file system: a tmpfs mounted read-only in a user and mount namespace of the
# command's own (root's permissions alone would not stop a write).
READ_ONLY = ('mount -t tmpfs none "$1" && mount -o remount,ro "$1" && shift && exec "$@"')


def read_only_argv(folder: Path, *command: str, script: str = READ_ONLY) -> list[str]:
    """The argv that runs `command` in namespaces of its own where `folder` is a read-only tmpfs."""
    return ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script, "sh", str(folder),
            *command]


def in_read_only(project: Project, folder: Path, *command: str, env: dict[str, str] | None = None):
    folder.mkdir(parents=True, exist_ok=True)
    return subprocess.run(read_only_argv(folder, *command), cwd=REPO, env=env or project.env,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def read_only_mounts(tmp_path_factory: pytest.TempPathFactory) -> None:
    probe = tmp_path_factory.mktemp("ro_probe")
    done = subprocess.run(read_only_argv(probe, "sh", "-c", f"! touch {probe}/x",
                                         script=READ_ONLY + " 2>&1"),
                          capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        pytest.skip(f"no user namespaces here to mount a read-only file system: {done.stderr.strip()}")


def test_a_read_only_target_is_refused_before_anything_is_published(
        degenerate: Project, tmp_path: Path, read_only_mounts: None) -> None:
    # processes of their own: each runs in a mount namespace of its own
    degenerate = venue_copy(degenerate, tmp_path / "venue")
    before = versions.current(degenerate.published)
    frozen = tmp_path / "frozen"
    for option in ("--export-dir", "--report-dir"):
        command = [str(BIN / "paperrank"), "rank", "--profile", "iclr2026", "--venue", VENUES[0],
                   "--top-n", "3", "--export-dir", str(tmp_path / "e"), "--report-dir", str(tmp_path / "r"),
                   option, str(frozen / "target")]
        line = single_line(in_read_only(degenerate, frozen, *command))
        name = "EXPORT_DIR" if option == "--export-dir" else "REPORT_DIR"
        assert line.startswith(f"error: {name}={frozen / 'target'} cannot be written") and "read-only" in line
        assert versions.current(degenerate.published) == before
    env = {**degenerate.env, "PAPERRANK_PUBLISHED_DB": str(frozen / "published.duckdb")}
    line = single_line(in_read_only(degenerate, frozen, str(BIN / "paperrank"), "rank", "--profile",
                                    "iclr2026", "--venue", VENUES[0], "--export-dir", str(tmp_path / "e"),
                                    "--report-dir", str(tmp_path / "r"), env=env))
    assert line.startswith("error: PAPERRANK_PUBLISHED_DB=") and "read-only" in line


def test_commands_writing_to_a_read_only_disk_are_one_line(
        degenerate: Project, tmp_path: Path, read_only_mounts: None) -> None:
    # processes of their own: each runs in a mount namespace of its own
    degenerate = venue_copy(degenerate, tmp_path / "venue")
    frozen = tmp_path / "frozen"
    paperrank = str(BIN / "paperrank")
    for command, env in (
            ([paperrank, "export", "--export-dir", str(frozen / "exports"), "--venue", VENUES[0]], None),
            ([paperrank, "report", "--db", str(degenerate.published), "--out-dir", str(frozen / "report")], None),
            ([sys.executable, "-c", "import sys; from paperrank.cli import run; "
              "sys.exit(run(['publish', '--profile', 'iclr2026', '--venue', 'SYNTH 2026']))"],
             {**degenerate.env, "PAPERRANK_PUBLISHED_DB": str(frozen / "published.duckdb")})):
        result = in_read_only(degenerate, frozen, *command, env=env)
        line = single_line(result)
        assert "Read-only file system" in line and str(frozen) in line, line
        assert "Traceback" not in result.stdout + result.stderr
