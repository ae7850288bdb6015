"""Issue 22 points 8, 10, 11 and 15 on a degenerate venue: two venues of one paper each, whose
names give the same report file name (`SYNTH 2026`, `Synth-2026`).

- several venues without VENUE: `make rank` used to publish, then fail at the export;
- a one-paper venue published and exported, then the report crashed (`max() arg is an empty
  sequence`); the report was rewritten in place (a full disk left a truncated page) and
  rollback left the withdrawn build's page up;
- a loader committing after the raw checks read the tables got its rows published unchecked;
- an analyst's read-write connection to the published file, a truncated working warehouse
  and a full disk ended in tracebacks or DuckDB's raw lock text, and a lock taken by another
  process between the lock check and dbt's start in 230 lines of dbt's traceback.
"""

from __future__ import annotations

import hashlib
import json
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import duckdb
import pytest
from project import BIN, REPO, Project, rows
from test_paperlists import paper, write_json

from paperrank.publish import versions

pytestmark = pytest.mark.e2e  # runs make rank / publish pipelines

VENUES = ("SYNTH 2026", "Synth-2026")


@pytest.fixture(scope="module")
def degenerate(tmp_path_factory: pytest.TempPathFactory) -> Project:
    scratch = tmp_path_factory.mktemp("degenerate")
    project = Project(scratch / "w.duckdb", scratch)
    out, truth = scratch / "v.parquet", scratch / "t.parquet"
    project.paperrank("ingest", "synthetic", "--papers", "200", "--out", str(out),
                   "--labels-out", str(truth))
    project.paperrank("ingest", "file", str(out), "--venue", VENUES[0], "--profile",
                   "iclr2026")
    project.paperrank("classify", "import", str(truth), "--taxonomy", "icml2026")
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
    return project


def rank(project: Project, *extra: str, venue: str = VENUES[0], check: bool = True):
    return project.run(str(BIN / "paperrank"), "rank", "--profile", "iclr2026",
                       "--export-dir", str(project.scratch / "exports"), "--report-dir",
                       str(project.scratch / "report"), "--venue", venue, *extra, check=check)


def single_line(result, code: int = 2) -> str:
    assert result.returncode == code, result.stdout[-3000:] + result.stderr[-3000:]
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def page_hash(report: Path) -> str:
    return hashlib.sha256((report / "synth-2026.html").read_bytes()).hexdigest()


def test_several_venues_without_venue_are_refused_before_anything(degenerate: Project) -> None:
    line = single_line(rank(degenerate, venue="", check=False))
    assert "raw.papers holds 2 venues (SYNTH 2026, Synth-2026)" in line and "set VENUE" in line
    assert not degenerate.published.exists() and not (degenerate.scratch / "exports").exists()


def test_a_one_paper_venue_publishes_exports_and_reports_saying_why(degenerate: Project) -> None:
    result = rank(degenerate, "--top-n", "5")
    report = degenerate.scratch / "report"
    assert f"report for SYNTH 2026: {report / 'synth-2026.html'}" in result.stdout
    page = (report / "synth-2026.html").read_text(encoding="utf-8")
    assert "every z-score is 0, so only the composite is drawn" in page
    version = versions.current(report)
    manifest = json.loads((version / "manifest.json").read_text(encoding="utf-8"))
    assert [p["venue"] for p in manifest["pages"]] == ["SYNTH 2026"]
    assert manifest["build_id"] == rows(degenerate.published,
                                        "select min(build_id) from marts.build_settings")[0][0]


def test_report_pages_that_would_collide_are_refused(degenerate: Project, tmp_path: Path) -> None:
    degenerate.dbt("build", "--vars", "{top_n: 5}")  # both venues
    both = tmp_path / "both.duckdb"
    code = textwrap.dedent(f"""
        from pathlib import Path
        from paperrank.publish import publish, report_files
        publish.publish(Path({str(degenerate.db)!r}), Path({str(both)!r}))
        report_files.publish_report(Path({str(both)!r}), Path({str(tmp_path / 'report')!r}))
    """)
    result = degenerate.run(sys.executable, "-c", code, check=False)
    assert result.returncode != 0
    assert "would share the report page synth-2026.html" in result.stderr
    assert not (tmp_path / "report").exists()  # nothing half-written is switched in


def test_a_full_disk_leaves_the_previous_report(degenerate: Project) -> None:
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
    assert "the report could not be written" in line and "previous report is unchanged" in line
    assert page_hash(report) == before and versions.current(report) == version
    assert not list(versions.versions_dir(report).glob(".tmp-*"))


def test_rollback_brings_back_the_report_of_the_build_it_restores(degenerate: Project) -> None:
    report = degenerate.scratch / "report"
    first = page_hash(report)
    rank(degenerate, "--top-n", "2")
    assert page_hash(report) != first  # another build id on the page
    result = degenerate.run(str(BIN / "paperrank"), "rollback", "--export-dir",
                            str(degenerate.scratch / "exports"), "--report-dir", str(report))
    assert "report for SYNTH 2026" in result.stdout
    assert page_hash(report) == first


def test_a_loader_committing_after_the_raw_checks_read_blocks_the_publish(degenerate: Project,
                                                                         tmp_path: Path) -> None:
    before = versions.current(degenerate.published)
    extra = tmp_path / "extra.json"
    write_json(extra, [paper("late-1")])
    code = textwrap.dedent(f"""
        import subprocess, sys
        from pathlib import Path
        from paperrank.core.errors import PaperrankError
        from paperrank.pipeline import gates, rank
        from paperrank.pipeline.settings import Settings
        original = gates.Gates.__init__
        def read_then_a_loader_commits(self, chosen, log):
            original(self, chosen, log)  # the raw checks have read the tables
            subprocess.run([{str(BIN / "paperrank")!r}, "ingest", "file", {str(extra)!r},
                            "--venue", "SYNTH 2026", "--profile", "iclr2026"], check=True,
                           capture_output=True)
        rank.Gates.__init__ = read_then_a_loader_commits
        try:
            rank.rank(Settings(venue="SYNTH 2026", top_n=5, profile="iclr2026"),
                      Path({str(degenerate.scratch / 'exports')!r}), False,
                      Path({str(tmp_path / 'log.txt')!r}), Path({str(degenerate.scratch / 'report')!r}))
        except PaperrankError as error:
            print(error, file=sys.stderr)
            sys.exit(2)
    """)
    result = degenerate.run(sys.executable, "-c", code, check=False)
    line = result.stderr.strip().splitlines()[-1]
    assert result.returncode == 2, result.stdout[-2000:] + result.stderr[-2000:]
    assert "the raw layer changed during the build: raw.loads" in line and "raw.papers (2 -> 3 rows)" in line
    assert versions.current(degenerate.published) == before  # nothing published


@pytest.mark.parametrize("command", ["rank", "build"])
def test_a_lock_lost_in_a_race_is_one_line(degenerate: Project, tmp_path: Path, command: str) -> None:
    """Another process takes the working warehouse after the lock check passed and before dbt
    opens it: one line naming that process and exit 2, not dbt's 230-line traceback first."""
    before = versions.current(degenerate.published) if degenerate.published.exists() else None
    module = "rank" if command == "rank" else "dbt_cli"
    code = textwrap.dedent(f"""
        import subprocess, sys
        from paperrank.cli import run
        from paperrank.pipeline import {module} as module
        checked = module.check_writable
        holders = []
        def checked_then_taken(path):
            checked(path)
            holders.append(subprocess.Popen([sys.executable, "-c",
                "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); print('held', flush=True); "
                "time.sleep(120)", str(path)], stdout=subprocess.PIPE, text=True))
            assert holders[0].stdout.readline().strip() == "held"
            print("holder", holders[0].pid, file=sys.stderr, flush=True)
        module.check_writable = checked_then_taken
        try:
            code = run([{command!r}, "--venue", "SYNTH 2026", "--profile", "iclr2026", "--top-n", "5"]
                       + ({command!r} == "rank") * ["--export-dir", {str(tmp_path / 'e')!r},
                                                    "--report-dir", {str(tmp_path / 'r')!r}])
        finally:
            for holder in holders:
                holder.kill()
        sys.exit(code)
    """)
    result = degenerate.run(sys.executable, "-c", code, check=False)
    assert result.returncode == 2, result.stdout[-3000:] + result.stderr[-3000:]
    holder_line, *lines = result.stderr.strip().splitlines()
    pid = holder_line.split()[1]
    assert len(lines) == 1, result.stderr
    assert f"is in use by process {pid}" in lines[0] and f"kill {pid}" in lines[0]
    assert "Traceback" not in result.stdout + result.stderr
    assert "Could not set lock" not in result.stdout, result.stdout[-3000:]
    if before is not None:
        assert versions.current(degenerate.published) == before


def test_an_analysts_read_write_connection_is_refused_before_publishing(degenerate: Project) -> None:
    if not degenerate.published.exists():
        rank(degenerate, "--top-n", "5")
    before = versions.current(degenerate.published)
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import sys, time, duckdb
        con = duckdb.connect({str(degenerate.published)!r})
        print("open", flush=True)
        time.sleep(120)
    """)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "open"
        line = single_line(rank(degenerate, "--top-n", "3", check=False))
        assert str(before) in line or "published.duckdb" in line
        assert f"process {holder.pid}" in line or str(holder.pid) in line
        assert versions.current(degenerate.published) == before
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()


def test_a_truncated_working_warehouse_is_one_line(degenerate: Project, tmp_path: Path) -> None:
    broken = tmp_path / "broken.duckdb"
    broken.write_bytes(degenerate.db.read_bytes()[:5000])
    env = {**degenerate.env, "PAPERRANK_DB": str(broken)}
    result = subprocess.run([str(BIN / "paperrank"), "rank", "--venue",
                             VENUES[0], "--export-dir", str(tmp_path / "e"), "--report-dir",
                             str(tmp_path / "r")], cwd=REPO, env=env, capture_output=True,
                            text=True, timeout=300)
    line = single_line(result)
    assert f"the working warehouse {broken} cannot be opened" in line


def test_a_full_disk_while_publishing_is_one_line_and_switches_nothing(degenerate: Project) -> None:
    if not degenerate.published.exists():
        rank(degenerate, "--top-n", "5")
    before = versions.current(degenerate.published)
    code = textwrap.dedent(f"""
        import resource, signal, sys
        from pathlib import Path
        from paperrank.core.errors import PaperrankError
        from paperrank.publish import publish
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536))
        try:
            publish.publish(Path({str(degenerate.db)!r}), Path({str(degenerate.published)!r}))
        except PaperrankError as error:
            print(error, file=sys.stderr)
            sys.exit(2)
    """)
    line = single_line(degenerate.run(sys.executable, "-c", code, check=False))
    assert "nothing was switched" in line
    assert versions.current(degenerate.published) == before
    assert not list(versions.versions_dir(degenerate.published).glob(".tmp-*"))


# -- a read-only disk (issue 22 point 15) ----------------------------------------------------------
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
    if not degenerate.published.exists():
        rank(degenerate, "--top-n", "5")
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
    if not degenerate.published.exists():
        rank(degenerate, "--top-n", "5")
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
