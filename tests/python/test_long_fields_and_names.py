"""Long fields and decomposed names in the files operators hand to paperrank.

- a picks row with a field over Python's CSV field limit (a 1 MB note spanning lines) is refused
  alone, with its line and that reason; the file's other rows are taken;
- `paperrank rank-sets` names the line and the same reason, not "an unclosed quote";
- an expert name typed in decomposed Unicode (`e` + combining acute) is the composed name.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from pathlib import Path

import duckdb
import pytest

from paperrank.cli import run

VENUE = "ICLR 2026"
HEADER = "venue,paper_id,category,selected_by,note\n"
LONG = "a long note\n" + "x" * 1_048_576  # over csv's 131,072 and spanning lines


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The two marts the import reads, three ranked papers of one venue."""
    path = tmp_path_factory.mktemp("long_fields") / "warehouse.duckdb"
    con = duckdb.connect(str(path))
    try:
        con.execute("create schema marts")
        con.execute("create table marts.paper_rankings (venue varchar, paper_id varchar, category varchar)")
        con.executemany("insert into marts.paper_rankings values (?, ?, 'Agents')",
                        [(VENUE, p) for p in ("n1", "n2", "n3")])
        con.execute("create table marts.excluded_papers (venue varchar, paper_id varchar, "
                    "category varchar, exclusion_reason varchar, exclusion_detail varchar)")
    finally:
        con.close()
    return path


def picks_import(db: Path, seed: Path, picks: Path) -> int:
    return run(["picks", "import", str(picks), "--db", str(db), "--seed", str(seed)])


def seed_rows(seed: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(seed.read_text(encoding="utf-8"))))[1:]


def test_a_picks_row_over_the_field_limit_is_refused_alone(db: Path, tmp_path: Path, capsys) -> None:
    seed = tmp_path / "expert_selections.csv"
    seed.write_text(HEADER, encoding="utf-8")
    picks = tmp_path / "ann.csv"
    picks.write_text(HEADER + f"{VENUE},n1,Agents,Ann,first\n{VENUE},n2,Agents,Ann,\"{LONG}\"\n"
                     f"{VENUE},n3,Agents,Ann,third\n", encoding="utf-8")
    assert picks_import(db, seed, picks) == 1
    out, err = capsys.readouterr()
    assert (f"not taken: {picks}:3: field 'note' is {len(LONG):,} characters long, larger than "
            "the field limit (131,072)") in err
    assert "quote" not in err and "files refused" not in out
    assert "picks taken: 2; not taken: 1;" in out
    assert seed_rows(seed) == [[VENUE, "n1", "Agents", "Ann", "first"],
                               [VENUE, "n3", "Agents", "Ann", "third"]]


def test_rank_sets_names_a_field_over_the_limit(tmp_path: Path, capsys) -> None:
    path = tmp_path / "estimates.csv"
    path.write_text(f'id,est,err\na,1,0.5\n"{LONG}",2,0.5\nc,3,0.5\n', encoding="utf-8")
    code = run(["rank-sets", str(path), "--id", "id", "--estimate", "est", "--se", "err",
                "--out", str(tmp_path / "out.csv")])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.strip() == (f"error: {path} line 3: field 1 is {len(LONG):,} characters long, "
                           "larger than the field limit (131,072)")


def test_a_decomposed_name_is_the_composed_name(db: Path, tmp_path: Path, capsys) -> None:
    composed = "José"
    decomposed = unicodedata.normalize("NFD", composed)
    assert decomposed != composed
    seed = tmp_path / "expert_selections.csv"
    seed.write_text(HEADER, encoding="utf-8")
    first = tmp_path / "jose-1.csv"
    first.write_text(HEADER + f"{VENUE},n1,Agents,{decomposed},\n", encoding="utf-8")
    assert picks_import(db, seed, first) == 0, capsys.readouterr().err
    second = tmp_path / "jose-2.csv"
    second.write_text(HEADER + f"{VENUE},n2,Agents,{composed},\n", encoding="utf-8")
    assert picks_import(db, seed, second) == 0, capsys.readouterr().err
    # one expert: the second file replaced the first's picks in the category, under one name
    assert seed_rows(seed) == [[VENUE, "n2", "Agents", composed, ""]]
