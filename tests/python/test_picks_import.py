"""`paperrank picks import`, run as an operator runs it, against a real DuckDB warehouse.

The warehouse is the smallest that works: the two marts the import reads
(marts.paper_rankings, marts.excluded_papers) for two venues, written once per module; the
import opens it read-only. What is checked:

- picks are filed per venue (a download's venue column, else the venue of the paper), a pick
  of another venue's paper is refused with file, line and reason, and an expert's new file
  replaces that expert's picks of the (venue, category) pairs it covers, never another venue's;
- one writer at a time: two real processes overlapping lose nothing;
- a malformed CSV (unclosed quote, a row of the wrong width) is refused whole, with its line;
- the seed keeps its mode and a kill -9 at the write step leaves no temporary behind;
- notes are stored as a spreadsheet shows them as text;
- an expert is one expert in any width or case.

The end-to-end build of two venues by dbt is at the bottom (marked e2e).
"""

from __future__ import annotations

import csv
import io
import os
import re
import select
import signal
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import duckdb
import pytest
from project import BIN, REPO, InProcessDbt, Project, copy_project, few_replicates, query

from paperrank.cli import run

NEW = "ICLR 2026"
OLD = "ICLR 2018"
HEADER = "venue,paper_id,category,selected_by,note\n"
LEGACY = "paper_id,category,selected_by,note\n"
# (venue, paper_id, category) of the ranked papers; 'twin' is a paper id of both venues
RANKED = [(NEW, "n1", "Agents"), (NEW, "n2", "Agents"), (NEW, "n3", "Agents"),
          (NEW, "n4", "Systems"), (NEW, "twin", "Agents"), (NEW, "-n5", "Agents"),
          (OLD, "o1", "Agents"), (OLD, "o2", "Agents"), (OLD, "o3", "Systems"),
          (OLD, "twin", "Agents")]
EXCLUDED = [(NEW, "n9", "Other", "category_not_ranked", "category Other is not ranked")]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A warehouse with the two marts the import reads, for two venues (read-only to tests)."""
    path = tmp_path_factory.mktemp("picks_warehouse") / "warehouse.duckdb"
    con = duckdb.connect(str(path))
    try:
        con.execute("create schema marts")
        con.execute("create table marts.paper_rankings "
                    "(venue varchar, paper_id varchar, category varchar)")
        con.executemany("insert into marts.paper_rankings values (?, ?, ?)", RANKED)
        con.execute("create table marts.excluded_papers (venue varchar, paper_id varchar, "
                    "category varchar, exclusion_reason varchar, exclusion_detail varchar)")
        con.executemany("insert into marts.excluded_papers values (?, ?, ?, ?, ?)", EXCLUDED)
    finally:
        con.close()
    return path


def write(path: Path, text: str, mode: int = 0o644) -> Path:
    path.write_text(text, encoding="utf-8")
    path.chmod(mode)
    return path


def seed_rows(seed: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(seed.read_text(encoding="utf-8"))))


def picks_import(db: Path, seed: Path, *files: Path, extra: tuple[str, ...] = ()) -> int:
    return run(["picks", "import", *map(str, files), "--db", str(db), "--seed", str(seed), *extra])


def command(db: Path, seed: Path, *files: Path, extra: tuple[str, ...] = ()) -> list[str]:
    """`paperrank picks import ...` as a process of its own."""
    return [str(BIN / "paperrank"), "picks", "import", *map(str, files), "--db", str(db),
            "--seed", str(seed), *extra]


# -- 1. picks per venue --------------------------------------------------------------------
def test_picks_are_filed_under_their_venue(db: Path, tmp_path: Path, capsys) -> None:
    seed = write(tmp_path / "expert_selections.csv", HEADER)
    new = write(tmp_path / "ann-2026.csv", HEADER + f"{NEW},n1,Agents,Ann,first\n"
                f"{NEW},o1,Agents,Ann,\n"                       # 3: a 2018 paper under 2026
                f"{NEW},n4,Systems,Ann,\n")
    old = write(tmp_path / "ann-2018.csv", LEGACY + "o1,Agents,Ann,old format\n"
                "twin,Agents,Ann,\n"                            # 3: in both venues
                "zz,Agents,Ann,\n")                             # 4: in none
    assert picks_import(db, seed, new, old) == 1
    err = capsys.readouterr().err
    assert (f"not taken: {new}:3: paper o1 is not an accepted paper of '{NEW}' "
            f"(it is one of '{OLD}')") in err
    assert (f"not taken: {old}:3: paper twin is an accepted paper of 2 venues ({OLD}, {NEW}), "
            "and the file has no venue column to say which one is meant: download the picks "
            "again from the venue's report page") in err
    assert f"not taken: {old}:4: unknown paper 'zz'" in err
    assert seed_rows(seed) == [
        ["venue", "paper_id", "category", "selected_by", "note"],
        [OLD, "o1", "Agents", "Ann", "old format"],
        [NEW, "n1", "Agents", "Ann", "first"],
        [NEW, "n4", "Systems", "Ann", ""],
    ]


def test_a_new_file_replaces_only_its_venue_and_categories(db: Path, tmp_path: Path) -> None:
    seed = write(tmp_path / "expert_selections.csv", HEADER
                 + f"{OLD},o1,Agents,Ann,2018 pick\n{NEW},n1,Agents,Ann,\n{NEW},n2,Agents,Ann,\n"
                 + f"{NEW},n4,Systems,Ann,\n{NEW},n1,Agents,Bob,\n")
    # Ann unticked n1 and ticked n3 on the 2026 page, in Agents only
    again = write(tmp_path / "ann.csv", HEADER + f"{NEW},n2,Agents,Ann,\n{NEW},n3,Agents,Ann,\n")
    assert picks_import(db, seed, again) == 0
    assert {tuple(r[:4]) for r in seed_rows(seed)[1:]} == {
        (OLD, "o1", "Agents", "Ann"),          # the other venue's pick, same expert and category
        (NEW, "n2", "Agents", "Ann"), (NEW, "n3", "Agents", "Ann"),
        (NEW, "n4", "Systems", "Ann"),         # another category
        (NEW, "n1", "Agents", "Bob"),          # another expert
    }
    # a 2018 download in today's format (no venue column) leaves 2026 alone
    old = write(tmp_path / "ann-2018.csv", LEGACY + "o2,Agents,Ann,\n")
    assert picks_import(db, seed, old) == 0
    rows = {tuple(r[:4]) for r in seed_rows(seed)[1:]}
    assert (OLD, "o2", "Agents", "Ann") in rows and (OLD, "o1", "Agents", "Ann") not in rows
    assert {r for r in rows if r[0] == NEW} == {
        (NEW, "n2", "Agents", "Ann"), (NEW, "n3", "Agents", "Ann"), (NEW, "n4", "Systems", "Ann"),
        (NEW, "n1", "Agents", "Bob")}


def test_a_seed_without_venues_gets_them_from_the_papers(db: Path, tmp_path: Path,
                                                         capsys) -> None:
    seed = write(tmp_path / "expert_selections.csv", LEGACY + "n1,Agents,Bob,kept\n")
    nothing = write(tmp_path / "none.csv", HEADER)
    assert picks_import(db, seed, nothing) == 0
    assert seed_rows(seed)[1:] == [[NEW, "n1", "Agents", "Bob", "kept"]]
    # a seed line whose venue cannot be told is refused, and nothing is written
    before = write(seed, LEGACY + "n1,Agents,Bob,kept\ntwin,Agents,Bob,\n").read_bytes()
    assert picks_import(db, seed, nothing) == 2
    err = capsys.readouterr().err
    assert f"error: {seed}:3: paper twin is an accepted paper of 2 venues" in err
    assert "add the column by hand" in err
    assert seed.read_bytes() == before


def test_import_reports_every_row_it_cannot_take(db: Path, tmp_path: Path, capsys) -> None:
    """(From the report workbench's tests; a row of the wrong width now refuses its file, below.)"""
    lines = [HEADER.strip(),
             f"{NEW},n1,Agents,Ann,fine",                     # 2: taken
             f"{NEW},NOPE-1,Agents,Ann,",                     # 3: unknown paper
             f"{NEW},n2,Not A Category,Ann,",                 # 4: wrong category
             f"{NEW},n2,,Ann,",                               # 5: malformed
             f'{NEW},n3,Agents,"=HYPERLINK(1)",',             # 6: bad name
             f"{NEW},n3,Agents,Ann,\"multi\nline\"",          # 7-8: taken
             f"{NEW},n1,Agents,Ann,again",                    # 9: duplicate
             f"{NEW},n9,Other,Ann,"]                          # 10: not ranked
    picks_file = write(tmp_path / "ann.csv", "\n".join(lines) + "\n")
    seed = write(tmp_path / "seed.csv", HEADER + f"{NEW},n4,Systems,Ann,old pick\n"
                 f"{NEW},n4,Systems,Bob,stays\n{NEW},n2,Agents,Ann,replaced\n")
    assert picks_import(db, seed, picks_file) == 1
    errors = [e for e in capsys.readouterr().err.splitlines() if e.startswith("not taken: ")]
    where = [re.match(r"not taken: (.+):(\d+): ", e).groups() for e in errors]
    assert {f for f, _ in where} == {str(picks_file)}
    assert [int(n) for _, n in where] == [3, 4, 5, 6, 9, 10]
    assert "unknown paper 'NOPE-1'" in errors[0]
    assert "not 'Not A Category'" in errors[1]
    assert "malformed line" in errors[2]
    assert "characters a CSV or a page would misread" in errors[3]
    assert "picked again" in errors[4]
    assert "is not ranked: category Other is not ranked" in errors[5]
    got = {(r[1], r[3]): r[4] for r in seed_rows(seed)[1:]}
    assert got == {("n1", "Ann"): "fine", ("n3", "Ann"): "multi\nline",
                   ("n4", "Ann"): "old pick", ("n4", "Bob"): "stays"}


# -- 2-6: the breaks of a hand-edited file, in the download format (no venue column: it still
# imports, so each test fails on the code before the fix for the break itself) -------------
def picks_of(seed: Path) -> set[tuple[str, str, str]]:
    """(paper_id, selected_by, note) of every pick in the seed, whatever its columns."""
    with seed.open(encoding="utf-8", newline="") as handle:
        return {(r["paper_id"], r["selected_by"], r["note"]) for r in csv.DictReader(handle)}


def test_two_overlapping_imports_lose_no_picks(db: Path, tmp_path: Path) -> None:
    """The first import reads its file from a pipe, so it is held open inside its
    read-merge-write for as long as the test likes; the second runs meanwhile. Before the lock,
    the second printed "updated", exit 0, and the first then wrote the seed without its picks."""
    seed = write(tmp_path / "expert_selections.csv", LEGACY)
    pipe = tmp_path / "ann.csv"
    os.mkfifo(pipe)
    bob = write(tmp_path / "bob.csv", LEGACY + "n2,Agents,Bob,\nn4,Systems,Bob,\n")
    first = subprocess.Popen(command(db, seed, pipe), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    second = None
    try:
        writer = open_writer_when_read(pipe, first)
        second = subprocess.Popen(command(db, seed, bob), stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        said = wait_for_exit_or_line(second, "waiting")
        assert said is None or f"which is writing {seed}" in said
        with os.fdopen(writer, "w", encoding="utf-8") as out:
            out.write(LEGACY + "n1,Agents,Ann,\no1,Agents,Ann,\n")
        out_first, err_first = first.communicate(timeout=60)
        out_second, err_second = second.communicate(timeout=60)
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.kill()
    assert first.returncode == 0, out_first + err_first
    assert second.returncode in (0, 2), out_second + err_second
    picks = picks_of(seed)
    assert {("n1", "Ann", ""), ("o1", "Ann", "")} <= picks
    if second.returncode == 0:
        assert {("n2", "Bob", ""), ("n4", "Bob", "")} <= picks, (out_second, picks)
    else:
        assert err_second.count("\n") <= 2 and "nothing was imported" in err_second


def open_writer_when_read(pipe: Path, reader: subprocess.Popen[str]) -> int:
    """The write end of `pipe`, once `reader` has opened it to read (its open is waiting)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            return os.open(pipe, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # ENXIO: nobody reads it yet
            assert reader.poll() is None, reader.communicate()
            time.sleep(0.02)
    raise AssertionError("the first import never opened its file")


def wait_for_exit_or_line(process: subprocess.Popen[str], word: str) -> str | None:
    """The first line of `process`'s stderr that holds `word`, or None when it exits first."""
    assert process.stderr is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stderr], [], [], 0.05)
        if ready:
            line = process.stderr.readline()
            if word in line:
                return line
        if process.poll() is not None:
            return None
    raise AssertionError(f"the second import neither exited nor said {word!r}")


def test_a_held_seed_is_waited_for_then_refused_in_one_line(db: Path, tmp_path: Path,
                                                            capsys) -> None:
    import fcntl

    seed = write(tmp_path / "expert_selections.csv", HEADER + f"{NEW},n1,Agents,Ann,\n")
    before = seed.read_bytes()
    bob = write(tmp_path / "bob.csv", HEADER + f"{NEW},n2,Agents,Bob,\n")
    with (tmp_path / ".expert_selections.csv.lock").open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # what another import holds while it writes
        assert picks_import(db, seed, bob, extra=("--wait", "0.3")) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("waiting (at most 0.3 s) for another `paperrank picks import`")
    refusal = err.splitlines()[-1]
    assert refusal.startswith("error: another `paperrank picks import`")
    assert f"has held {seed} for more than 0.3 s" in refusal and "nothing was imported" in refusal
    assert len(err.splitlines()) == 2 and seed.read_bytes() == before
    assert picks_import(db, seed, bob, extra=("--wait", "-1")) == 2
    assert "--wait -1 must be from 0 to 3600 seconds" in capsys.readouterr().err
    assert picks_import(db, seed, bob) == 0  # released: taken
    assert [NEW, "n2", "Agents", "Bob", ""] in seed_rows(seed)


def test_an_unclosed_quote_refuses_the_whole_file(db: Path, tmp_path: Path, capsys) -> None:
    """Before: the 19 rows below the quote became one note, "not taken: 0", exit 0."""
    seed = write(tmp_path / "expert_selections.csv", LEGACY + "n4,Systems,Bob,\n")
    rows = ["n1,Agents,Ann,fine", 'n2,Agents,Ann,"an unclosed note']
    rows += [f"{p},Agents,Cy{i},row {i}" for i, p in enumerate(["n1", "n2", "n3"] * 7)]
    broken = write(tmp_path / "ann.csv", LEGACY + "\n".join(rows[:21]) + "\n")
    good = write(tmp_path / "dee.csv", LEGACY + "n3,Agents,Dee,\n")
    assert picks_import(db, seed, broken, good) == 1
    out, err = capsys.readouterr()
    assert (f"not taken: {broken}:3: malformed CSV: a quoted field that starts here is never "
            "closed") in err
    assert "the whole file is refused and none of its rows is taken" in err
    assert "picks taken: 1; not taken: 0; files refused: 1;" in out
    assert picks_of(seed) == {("n3", "Dee", ""), ("n4", "Bob", "")}
    before = seed.read_bytes()
    assert picks_import(db, seed, broken) == 1
    assert seed.read_bytes() == before and "unchanged" in capsys.readouterr().out


@pytest.mark.parametrize("row", ["n2,Agents,Ann,a note, with a comma", "n2,Agents,Ann",
                                 'n2,Agents,Ann,"quoted"then text'],
                         ids=["extra-field", "missing-field", "text-after-quote"])
def test_a_row_of_the_wrong_shape_refuses_the_whole_file(db: Path, tmp_path: Path, capsys,
                                                         row: str) -> None:
    seed = write(tmp_path / "expert_selections.csv", HEADER)
    before = seed.read_bytes()
    broken = write(tmp_path / "ann.csv", LEGACY + f"n1,Agents,Ann,\n{row}\nn3,Agents,Ann,\n")
    assert picks_import(db, seed, broken) == 1
    err = capsys.readouterr().err
    assert f"not taken: {broken}:3: malformed CSV: " in err and "whole file is refused" in err
    assert seed.read_bytes() == before


@pytest.mark.parametrize("mode", [0o644, 0o640])
def test_the_seed_keeps_its_mode(db: Path, tmp_path: Path, mode: int) -> None:
    """Before: 0600 (the temporary file's mode, from mkstemp)."""
    seed = write(tmp_path / "expert_selections.csv", LEGACY, mode)
    ann = write(tmp_path / "ann.csv", LEGACY + "n1,Agents,Ann,\n")
    assert picks_import(db, seed, ann) == 0
    assert stat.S_IMODE(seed.stat().st_mode) == mode
    assert picks_of(seed) == {("n1", "Ann", "")}


KILLER = textwrap.dedent("""
    import os, signal, sys
    from paperrank.cli import run
    def die(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGKILL)
    setattr(os, sys.argv[1], die)
    sys.exit(run(sys.argv[2:]))
""")


@pytest.mark.parametrize("step", ["fsync", "replace"])
def test_a_kill_at_the_write_step_leaves_no_temporary(db: Path, tmp_path: Path,
                                                      step: str) -> None:
    """A real kill -9 of an import at the write step (its os.fsync or os.replace is replaced
    by SIGKILL to itself): the seed is the old one, and the next import leaves nothing but the
    seed and its lock file beside it."""
    folder = tmp_path / "seeds"
    folder.mkdir()
    seed = write(folder / "expert_selections.csv", LEGACY + "n4,Systems,Bob,\n")
    before = seed.read_bytes()
    ann = write(tmp_path / "ann.csv", LEGACY + "n1,Agents,Ann,\n")
    write(folder / ".expert_selections.k2_9xq0z", "")  # left by the import before this one
    killed = subprocess.run([sys.executable, "-c", KILLER, step, *command(db, seed, ann)[1:]],
                            cwd=tmp_path, capture_output=True, text=True, check=False,
                            timeout=120)
    assert killed.returncode == -signal.SIGKILL, killed.stdout + killed.stderr
    assert seed.read_bytes() == before and stat.S_IMODE(seed.stat().st_mode) == 0o644
    assert picks_import(db, seed, ann) == 0
    assert sorted(p.name for p in folder.iterdir() if p.name != ".expert_selections.csv.lock") \
        == ["expert_selections.csv"]
    assert stat.S_IMODE(seed.stat().st_mode) == 0o644
    assert picks_of(seed) == {("n1", "Ann", ""), ("n4", "Bob", "")}


def test_lock_and_temporary_files_are_not_committed(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text((REPO / ".gitignore").read_text(encoding="utf-8"),
                                         encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "seeds").mkdir()
    for name in ("expert_selections.csv", ".expert_selections.csv.lock",
                 ".expert_selections.csv.4242.tmp"):
        (tmp_path / "seeds" / name).write_text("x\n", encoding="utf-8")
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"],
                            cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert sorted(status.splitlines()) == ["?? .gitignore", "?? seeds/expert_selections.csv"]


FORMULAS = ["=1+1", "+33 1 23", "-2", "@SUM(A1)", "\tx", "\uff1d1+1", "\uff0b1", "\uff0d1",
            "\uff20x"]


def test_formula_looking_notes_are_stored_as_text(db: Path, tmp_path: Path) -> None:
    """As the page's download, the exports and rank-sets write them (paperrank.core.spreadsheet)."""
    # a note written raw by an earlier import is neutralised when the seed is next written
    seed = write(tmp_path / "expert_selections.csv", LEGACY + "o1,Agents,Bob,=old\n")
    papers = ["n1", "n2", "n3", "n4"]
    lines = [f"{papers[i % 4]},{'Systems' if i % 4 == 3 else 'Agents'},E{i},\"{note}\""
             for i, note in enumerate([*FORMULAS, "'=HYPERLINK(1)", "fine = good"])]
    notes = write(tmp_path / "notes.csv", LEGACY + "\n".join(lines) + "\n")
    assert picks_import(db, seed, notes) == 0
    stored = {name: note for _, name, note in picks_of(seed)}
    for i, note in enumerate(FORMULAS):
        assert stored[f"E{i}"] == "'" + note, note
    assert stored[f"E{len(FORMULAS)}"] == "'=HYPERLINK(1)"  # the page's download: once only
    assert stored[f"E{len(FORMULAS) + 1}"] == "fine = good"
    assert stored["Bob"] == "'=old"
    before = seed.read_bytes()
    assert picks_import(db, seed, notes) == 0 and seed.read_bytes() == before


def test_a_key_the_download_neutralised_is_read_back(db: Path, tmp_path: Path) -> None:
    """The page writes every cell through the spreadsheet rule, so an OpenReview id starting
    with '-' arrives as "'-n5": it is that paper, stored as the warehouse spells it."""
    seed = write(tmp_path / "expert_selections.csv", HEADER)
    ann = write(tmp_path / "ann.csv", HEADER + f"{NEW},'-n5,Agents,Ann,\n")
    assert picks_import(db, seed, ann) == 0
    assert seed_rows(seed)[1:] == [[NEW, "-n5", "Agents", "Ann", ""]]


def test_one_expert_in_any_width_or_case(db: Path, tmp_path: Path, capsys) -> None:
    """Before: a full-width 'Ａnn' was a second expert beside 'Ann'."""
    seed = write(tmp_path / "expert_selections.csv", LEGACY + "n1,Agents,Ann,\n")
    wide = write(tmp_path / "wide.csv", LEGACY + "n2,Agents,\uff21nn,\n"
                 "n2,Agents,ANN,again\n"                      # 3: the same expert again
                 "n3,Agents,\uff22\uff4f\uff42,\n")           # a new expert, full width
    assert picks_import(db, seed, wide) == 1
    assert f"not taken: {wide}:3: paper n2 is picked again by 'ANN' (first on line 2)" in \
        capsys.readouterr().err
    # 'Ａnn' is Ann: her Agents picks are replaced (n1 dropped), under the name first seen
    assert picks_of(seed) == {("n2", "Ann", ""), ("n3", "Bob", "")}


def test_two_spellings_of_one_expert_in_a_seed_are_refused(db: Path, tmp_path: Path,
                                                           capsys) -> None:
    seed = write(tmp_path / "expert_selections.csv",
                 LEGACY + "n1,Agents,Ann,a\nn1,Agents,\uff41nn,b\n")
    before = seed.read_bytes()
    assert picks_import(db, seed, write(tmp_path / "none.csv", LEGACY)) == 2
    assert (f"{seed}:3: expert 'Ann' picks paper n1 again (line 2): '\uff41nn' and 'Ann' are one "
            "expert") in capsys.readouterr().err
    assert seed.read_bytes() == before


def test_names_are_compared_after_nfkc_and_case_folding() -> None:
    from paperrank.picks.names import expert_key, name_problem, stored_name

    assert expert_key("\uff21nn") == expert_key("aNN") == expert_key("ann")
    assert expert_key("Stra\u00dfe") == expert_key("STRASSE")
    assert stored_name("\uff21nn") == "Ann"
    # a name that only breaks the rule once normalised (½ is 1⁄2) is refused
    assert "NFKC form '1\u20442 Ann'" in (name_problem("\u00bd Ann") or "")
    assert name_problem("\uff21nn") is None


# -- end to end: two venues in one warehouse, built by dbt ---------------------------------
@pytest.mark.e2e
def test_expert_picks_per_venue_in_a_two_venue_build(tmp_path: Path) -> None:
    """Two synthetic venues ranked in one warehouse; Ann picks on each venue's page (one file in
    today's format, one with the venue column), and after `dbt seed` and a rebuild of the picks
    each venue's rows of marts.expert_picks are that venue's picks. (A build of one venue, var
    venue, is the mart's unit test expert_picks_of_a_one_venue_build_are_that_venues.)"""
    root = copy_project(tmp_path / "project")
    project = Project(tmp_path / "warehouse.duckdb", tmp_path, root=root)
    for venue in ("SYNTH 2026", "OTHER 2025"):
        papers, truth = tmp_path / f"{venue[:5]}.parquet", tmp_path / f"{venue[:5]}_truth.parquet"
        project.paperrank("ingest", "synthetic", "--papers", "60", "--venue", venue,
                          "--out", str(papers), "--labels-out", str(truth))
        project.paperrank("ingest", "file", str(papers), "--venue", venue, "--profile", "iclr2026")
        project.paperrank("classify", "import", str(truth), "--taxonomy", "icml2026",
                          "--model", "truth")
    dbt = InProcessDbt(project)
    settings = few_replicates(taxonomy="icml2026")
    dbt("build", "--select", "+expert_picks", "--indirect-selection", "cautious", "--vars", settings)
    ranked = query(project.db, "select venue, paper_id, category from marts.paper_rankings "
                   "where category_rank <= 2 order by venue, category, category_rank")
    synth = ranked[ranked["venue"] == "SYNTH 2026"].head(2)
    other = ranked[ranked["venue"] == "OTHER 2025"].head(2)
    seed = root / "seeds" / "expert_selections.csv"
    ann_synth = write(tmp_path / "ann-synth.csv", LEGACY + "".join(
        f"{r.paper_id},{r.category},Ann,\n" for r in synth.itertuples()))
    ann_other = write(tmp_path / "ann-other.csv", HEADER + "".join(
        f"{r.venue},{r.paper_id},{r.category},Ann,\n" for r in other.itertuples()))
    for picks_file in (ann_synth, ann_other):
        project.paperrank("picks", "import", str(picks_file), "--db", str(project.db),
                          "--seed", str(seed))
    # a line edited in by hand, filing an OTHER 2025 paper under SYNTH 2026: flagged, not matched
    stray = other.iloc[0]
    with seed.open("a", encoding="utf-8") as out:
        out.write(f"SYNTH 2026,{stray.paper_id},{stray.category},Zed,by hand\n")
    # the seed, the mart and their tests, marts_agree included (its parents are built)
    built = dbt("build", "--select", "expert_selections", "expert_picks", "--indirect-selection",
                "buildable", "--full-refresh", "--vars", settings)
    assert re.search(r"PASS marts_agree__expert_picks_agree_with_paper_rankings", built.stdout)
    picks = query(project.db, "select venue, paper_id, selected_by, is_ranked, is_flagged, "
                  "flag_reason, expert_count from marts.expert_picks order by venue, paper_id")
    for venue, chosen in (("SYNTH 2026", synth), ("OTHER 2025", other)):
        mine = picks[(picks["venue"] == venue) & (picks["selected_by"] == "Ann")]
        assert sorted(mine["paper_id"]) == sorted(chosen["paper_id"]), venue
        assert mine["is_ranked"].all() and not mine["is_flagged"].any()
        assert (mine["expert_count"] == 1).all()
    zed = picks[picks["selected_by"] == "Zed"].iloc[0]
    assert (zed.venue, zed.is_ranked, zed.is_flagged, zed.expert_count) == (
        "SYNTH 2026", False, True, 1)
    assert zed.flag_reason == "paper is not an accepted paper of SYNTH 2026 in the warehouse"


def test_the_spreadsheet_rule_is_one_rule() -> None:
    """The picks seed and `paperrank rank-sets` neutralise with paperrank.core.spreadsheet, the
    SQL form the category CSVs use (same triggers, full-width forms included)."""
    import duckdb

    from paperrank.core.spreadsheet import FORMULA, SQL_FORMULA, inert_cell, plain_cell
    from paperrank.ranksets.sql import write_csv

    for text in [*FORMULAS, "\rx"]:
        assert inert_cell(text) == "'" + text and inert_cell(inert_cell(text)) == "'" + text
    for text in ["", "plain", "'=already", "a=b", " =x"]:
        assert inert_cell(text) == text
    for text in ["", "plain", "-n5", "'plain", "''=x", *FORMULAS]:
        assert plain_cell(inert_cell(text)) == text
    con = duckdb.connect()  # the category CSVs' SQL reads the same characters
    for text in [*FORMULAS, "\rx", "", "plain", "'=already", "a=b", " =x", "-n5", "\uff0dx"]:
        [(matched,)] = con.execute("select regexp_matches(?, ?)", [text, SQL_FORMULA]).fetchall()
        assert matched == bool(FORMULA.match(text)), text
    out = io.StringIO()  # rank-sets' writer, from a DuckDB result
    write_csv(con.execute("select * from (values ('=1+1', true), ('\uff20x', false), ('ok', true)) "
                          "as t(id, flag)"), out)
    con.close()
    assert out.getvalue() == "id,flag\n'=1+1,TRUE\n'\uff20x,FALSE\nok,TRUE\n"
