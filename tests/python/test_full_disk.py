"""A write the disk refuses ends in one line naming the file and the step:
the working warehouse (a loader writing the raw tables) and the picks seed.

The disks are real where the machine allows it: a 1 MB tmpfs (full) and a read-only one,
mounted for the test (root only; skipped elsewhere, and said why). The rest inject the failure
into the real write: a file-size limit (RLIMIT_FSIZE: the kernel refuses the write with
EFBIG), os.write failing with ENOSPC, the seed's folder removed before the write. Each time:
exit 2, one line `error: cannot write <file> ...`, no traceback, nothing loaded or replaced,
no temporary file left.
"""

from __future__ import annotations

import errno
import os
import resource
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pytest
from project import BIN

from paperrank.cli import run
from paperrank.picks import seed_file

HEADER = "venue,paper_id,category,selected_by,note\n"
VENUE = "SYNTH 2026"


@contextmanager
def small_filesystem(where: Path, size: str) -> Iterator[Path]:
    """A tmpfs of `size` at `where` for the test's length; the test skips where mounting is
    not allowed."""
    where.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                             capture_output=True, text=True, check=False)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small filesystem here ({mounted.stderr.strip()}); the "
                    "injected failures below cover the same code")
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=False)


@contextmanager
def read_only_filesystem(where: Path) -> Iterator[Path]:
    with small_filesystem(where, "1m") as folder:
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        yield folder


@pytest.fixture(scope="module")
def venue_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A synthetic venue of 2,000 papers (a few MB of raw tables)."""
    path = tmp_path_factory.mktemp("full_disk") / "venue.parquet"
    subprocess.run([str(BIN / "paperrank"), "ingest", "synthetic", "--out", str(path),
                    "--papers", "2000", "--venue", VENUE], check=True, capture_output=True)
    return path


def ingest(db: Path, venue_file: Path, file_size_limit: int | None = None
           ) -> subprocess.CompletedProcess[str]:
    def limit() -> None:  # in the child: the write fails with EFBIG instead of a signal
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        if file_size_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))

    return subprocess.run([str(BIN / "paperrank"), "ingest", "file", str(venue_file), "--venue", VENUE,
                           "--profile", "iclr2026"],
                          env={**os.environ, "PAPERRANK_DB": str(db)}, capture_output=True,
                          text=True, check=False, preexec_fn=limit, timeout=300)


def assert_one_line(result: subprocess.CompletedProcess[str], start: str, reason: str,
                    outcome: str = "nothing of it was loaded") -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: cannot write {start}"), result.stderr
    assert reason in lines[0] and outcome in lines[0], lines[0]


def papers(db: Path) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        row = con.execute("select count(*) from raw.papers").fetchone()
    finally:
        con.close()
    return row[0] if row else 0


def test_a_full_disk_while_loading_is_one_line(venue_file: Path, tmp_path: Path) -> None:
    with small_filesystem(tmp_path / "disk", "1m") as disk:
        db = disk / "w.duckdb"
        result = ingest(db, venue_file)
        assert_one_line(result, str(db), "No space left on device")
        assert "(loading " in result.stderr and "into the raw layer)" in result.stderr
        assert sorted(p.name for p in disk.iterdir()) == ["w.duckdb"]  # no WAL, no temporary
        assert papers(db) == 0


def test_a_file_size_limit_while_loading_is_one_line(venue_file: Path, tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    result = ingest(db, venue_file, file_size_limit=1_000_000)
    assert_one_line(result, str(db), "File too large")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.duckdb"]
    assert papers(db) == 0


def test_a_read_only_folder_is_one_line(venue_file: Path, tmp_path: Path) -> None:
    with read_only_filesystem(tmp_path / "disk") as disk:
        db = disk / "w.duckdb"
        result = ingest(db, venue_file)
        assert_one_line(result, str(db), "Read-only file system", "nothing was loaded")
        assert list(disk.iterdir()) == []


# -- the picks seed --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The two marts the import reads, one ranked paper."""
    path = tmp_path_factory.mktemp("full_disk_marts") / "warehouse.duckdb"
    con = duckdb.connect(str(path))
    try:
        con.execute("create schema marts")
        con.execute(f"create table marts.paper_rankings as select '{VENUE}' as venue, "
                    "'n1' as paper_id, 'Agents' as category")
        con.execute("create table marts.excluded_papers (venue varchar, paper_id varchar, "
                    "category varchar, exclusion_reason varchar, exclusion_detail varchar)")
    finally:
        con.close()
    return path


def picks_file(folder: Path) -> Path:
    path = folder / "ann.csv"
    path.write_text(HEADER + f"{VENUE},n1,Agents,Ann,{'a long note ' * 300}\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("locked_before", [True, False], ids=["seed-write", "lock-write"])
def test_a_full_disk_while_writing_the_seed_is_one_line(db: Path, tmp_path: Path, capsys,
                                                        locked_before: bool) -> None:
    """With an earlier import's lock file (holding its page) the seed's write meets the full
    disk; without one, the lock's."""
    picks = picks_file(tmp_path)
    with small_filesystem(tmp_path / "disk", "64k") as disk:
        seed = disk / "expert_selections.csv"
        seed.write_text(HEADER, encoding="utf-8")
        lock = seed_file.lock_path(seed)
        if locked_before:
            lock.write_text("1\n", encoding="ascii")
        filler = disk / "filler"
        handle = os.open(filler, os.O_WRONLY | os.O_CREAT)
        try:  # fill the disk up to its last bytes
            while True:
                os.write(handle, b"x" * 512)
        except OSError as error:
            assert error.errno == errno.ENOSPC
        finally:
            os.close(handle)
        assert run(["picks", "import", str(picks), "--db", str(db), "--seed", str(seed)]) == 2
        err = capsys.readouterr().err
        written = f"{seed} (its new version " if locked_before else f"{lock} (the lock of {seed})"
        assert err.startswith(f"error: cannot write {written}"), err
        assert "No space left on device" in err and err.count("\n") == 1
        assert seed.read_text(encoding="utf-8") == HEADER
        assert sorted(p.name for p in disk.iterdir()) == [".expert_selections.csv.lock",
                                                          "expert_selections.csv", "filler"]


def test_a_failing_seed_write_is_one_line(db: Path, tmp_path: Path, capsys,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    picks = picks_file(tmp_path)
    seed = tmp_path / "seeds" / "expert_selections.csv"
    seed.parent.mkdir()
    seed.write_text(HEADER, encoding="utf-8")

    def full(handle: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(seed_file.os, "write", full)
    assert run(["picks", "import", str(picks), "--db", str(db), "--seed", str(seed)]) == 2
    err = capsys.readouterr().err
    assert err == (f"error: cannot write {seed} (its new version .expert_selections.csv."
                   f"{os.getpid()}.tmp): No space left on device; {seed} was left as it was: "
                   "free space or choose a writable folder, then run this again\n")
    assert seed.read_text(encoding="utf-8") == HEADER
    assert sorted(p.name for p in seed.parent.iterdir()) == [".expert_selections.csv.lock",
                                                             "expert_selections.csv"]


def test_a_vanished_seed_folder_is_one_line(tmp_path: Path) -> None:
    seed = tmp_path / "gone" / "expert_selections.csv"
    with pytest.raises(seed_file.PaperrankError) as refused:
        seed_file.write_atomically(seed, HEADER)
    assert str(refused.value) == (
        f"cannot write {seed} (its new version .expert_selections.csv.{os.getpid()}.tmp): No such "
        f"file or directory; its folder {seed.parent} is gone: create it or choose another "
        "--seed, then run this again")
