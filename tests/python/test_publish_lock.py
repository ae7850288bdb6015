"""Two operators publishing at once: the publish lock (paperrank/publish/lock.py).

Two venues' builds, each in a working warehouse of its own, are delivered through the publish
door into one published warehouse by two processes released at the same instant. With the lock
both land, and the published warehouse, each venue's CSV manifest, its page and `paperrank
publications` name the same build of each venue; with the lock taken away (the door's lock
replaced by a no-op in the two processes, nothing else changed) one venue's new build is lost
while both processes said it was published, which is what the lock prevents. A publisher that
waits says whom for, gives up after PAPERRANK_PUBLISH_WAIT seconds naming the holder, and
readers are never blocked.

The builds are the session's degenerate venue (test_publication_safety.py), its working
warehouse copied and its venue renamed in the second copy: the door does not look at how a
build was made, only at what the working warehouse holds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from project import Project, as_build, venue_copy, warehouse_copy
from test_publication_safety import VENUES, degenerate, degenerate_loaded  # noqa: F401 - fixtures

from paperrank.publish import lock, versions

pytestmark = pytest.mark.e2e

OTHER = "OTHER 2026"

# one delivery in a process of its own, released by the file `go` (so both start composing at
# the same instant), then `delay` seconds more; `off` replaces the door's lock by a no-op. The
# time between composing and switching is widened by 0.3 s in both modes, so that without the
# lock the two always overlap, whatever the machine's speed
DELIVER = """
import contextlib, sys, time
from pathlib import Path
from paperrank.publish import delivery, lock, publication
working, venue, exports, reports, go, mode, delay = sys.argv[1:8]
if mode == "off":
    lock.publishing = lambda *args, **kwargs: contextlib.nullcontext()
compose = publication.compose
def composed(*args, **kwargs):  # the window between composing and switching, widened alike in both modes
    compose(*args, **kwargs)
    time.sleep(0.3)
publication.compose = composed
destination = delivery.Destination.checked(venue, Path(exports), Path(reports))
print("ready", flush=True)
while not Path(go).exists():
    time.sleep(0.002)
time.sleep(float(delay))
print(delivery.deliver(Path(working), destination).build_id, flush=True)
"""


def renamed(working: Path, venue: str) -> Path:
    """The working warehouse's build as a build of `venue` (every row of the venue renamed)."""
    con = duckdb.connect(str(working))
    try:
        tables = con.execute("select table_schema, table_name from information_schema.columns "
                             "where column_name = 'venue' and table_schema in ('marts', 'seeds', 'raw', "
                             "'staging', 'intermediate')").fetchall()
        kinds = dict(con.execute("select schema_name || '.' || table_name, 'table' from duckdb_tables()").fetchall())
        for schema, table in tables:
            if f"{schema}.{table}" in kinds:
                con.execute(f'update "{schema}"."{table}" set venue = ? where venue = ?', [venue, VENUES[0]])
    finally:
        con.close()
    return working


@pytest.fixture
def two_operators(degenerate: Project, tmp_path: Path) -> tuple[Project, Path]:  # noqa: F811
    """The degenerate venue published (SYNTH 2026), and a second working warehouse holding a
    build of another venue (OTHER 2026)."""
    project = venue_copy(degenerate, tmp_path / "venue")
    other = warehouse_copy(project, tmp_path / "other").db
    return project, renamed(other, OTHER)


def deliver_both(project: Project, other: Path, round_: int, mode: str,
                 apart: float = 0.0) -> tuple[dict[str, str], list[str]]:
    """Both venues delivered at once, the second `apart` seconds after the first (round
    `round_`, lock `mode`); each venue's new build id, and the errors of the processes that
    failed."""
    folder = project.scratch / f"round{round_}"
    folder.mkdir()
    go = folder / "go"
    builds = {VENUES[0]: f"a{round_}{mode}", OTHER: f"b{round_}{mode}"}
    as_build(project.db, builds[VENUES[0]])
    as_build(other, builds[OTHER])
    processes = []
    for venue, working, delay in ((VENUES[0], project.db, 0.0), (OTHER, other, apart)):
        env = {**project.env, "PAPERRANK_DB": str(working)}
        processes.append(subprocess.Popen(
            [sys.executable, "-c", DELIVER, str(working), venue, str(outputs(project, venue, "exports")),
             str(outputs(project, venue, "report")), str(go), mode, str(delay)],
            env=env, cwd=project.root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    for process in processes:
        assert process.stdout is not None and process.stderr is not None
        if process.stdout.readline().strip() != "ready":
            raise AssertionError(process.stderr.read())
    go.touch()
    failed = []
    for process in processes:
        out, err = process.communicate(timeout=300)
        if process.returncode != 0:
            failed.append(out + err)
    return builds, failed


def rollback(project: Project, wait: str) -> subprocess.CompletedProcess[str]:
    """`paperrank rollback --no-export` in a process of its own, with PAPERRANK_PUBLISH_WAIT."""
    return subprocess.run([sys.executable, "-m", "paperrank", "rollback", "--no-export"],
                          env={**project.env, "PAPERRANK_PUBLISH_WAIT": wait}, cwd=project.root,
                          capture_output=True, text=True, timeout=120, check=False)


def outputs(project: Project, venue: str, kind: str) -> Path:
    return project.scratch / f"{kind}-{venue.split()[0].lower()}"


def published_builds(project: Project) -> dict[str, str]:
    con = duckdb.connect(str(project.published), read_only=True)
    try:
        return dict(con.execute("select venue, build_id from marts.build_settings").fetchall())
    finally:
        con.close()


def manifest_build(folder: Path, key: str) -> str:
    manifest = json.loads((folder / versions.MANIFEST).read_text(encoding="utf-8"))
    return manifest["build_settings"]["build_id"] if key == "csv" else manifest["build_id"]


def test_two_venues_published_at_once_both_land_and_every_output_agrees(
        two_operators: tuple[Project, Path]) -> None:
    project, other = two_operators
    for round_, apart in enumerate((0.0, 0.2, 0.6)):  # together, and a little apart
        builds, failed = deliver_both(project, other, round_, "on", apart)
        assert not failed, failed
        assert published_builds(project) == builds, f"round {round_}"
        listing = project.cli("publications").stdout
        for venue, build in builds.items():
            assert manifest_build(outputs(project, venue, "exports"), "csv") == build
            assert manifest_build(outputs(project, venue, "report"), "page") == build
            assert f"{venue}: build {build}" in next(
                line for line in listing.splitlines() if line.startswith("*")), listing


def test_without_the_lock_a_venue_published_at_the_same_time_is_lost(
        two_operators: tuple[Project, Path]) -> None:
    """What the lock prevents, shown to happen without it: a venue's new build missing from the
    published warehouse (both processes having said it was published), a publisher failing on
    the other's half-made switch, or the published link left on a version the other pruned."""
    project, other = two_operators
    lost: list[str] = []
    for round_ in range(3):
        builds, failed = deliver_both(project, other, round_, "off")
        try:
            held = published_builds(project)
        except duckdb.Error as error:  # the link left on a version the other one pruned
            lost.append(f"the published warehouse cannot be opened: {error}")
            break
        lost += failed + [venue for venue, build in builds.items() if held.get(venue) != build]
    assert lost, "two unlocked publishes never overlapped: the test cannot see a lost update"


def test_a_waiting_publisher_names_the_holder_and_gives_up_after_the_wait(
        degenerate: Project, tmp_path: Path) -> None:  # noqa: F811
    project = venue_copy(degenerate, tmp_path / "venue")
    before = versions.current(project.published)
    with lock.publishing(project.published, "the delivery of TEST 2026"):
        # readers are never blocked by it: an analyst's query and the listing answer at once
        con = duckdb.connect(str(project.published), read_only=True)
        assert con.execute("select count(*) from marts.build_settings").fetchone() == (1,)
        con.close()
        assert project.cli("publications").returncode == 0
        started = time.monotonic()
        result = rollback(project, "1")
        waited = time.monotonic() - started
    assert result.returncode == 2, result.stdout + result.stderr
    assert "waiting for another publish to finish: the delivery of TEST 2026 (pid " \
        f"{os.getpid()}" in result.stdout
    line, = result.stderr.strip().splitlines()
    assert line.startswith(f"error: publishing to {project.published}: gave up after 1 s")
    assert f"the delivery of TEST 2026 (pid {os.getpid()}" in line
    assert waited < 30
    assert versions.current(project.published) == before


@pytest.mark.parametrize("value", ["soon", "-1", "inf", "nan"])
def test_a_wrong_wait_is_refused_naming_what_is_allowed(degenerate: Project, tmp_path: Path,  # noqa: F811
                                                        value: str) -> None:
    project = venue_copy(degenerate, tmp_path / "venue")
    result = rollback(project, value)
    line, = result.stderr.strip().splitlines()
    assert result.returncode == 2
    assert f"PAPERRANK_PUBLISH_WAIT={value!r}" in line and "a number from 0 up" in line
