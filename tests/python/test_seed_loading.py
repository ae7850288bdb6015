"""A seed loads the way it is declared, never the way a sample of it suggests.

- A 30,000-row picks seed whose first quoted note (`say "hi", ok`) comes after 25,000 plain
  rows, past the 20,480 rows DuckDB's CSV sniffer samples, loads whole in a real `dbt seed`
  (the dialect is declared in dbt_project.yml and the seed loader copies with it);
- a hand edit dbt could not load (a number too large for its declared integer column) is named
  with file and line by the seed check, which the pipeline runs before dbt starts;
- `paperrank picks import` loads its new seed the way dbt does before it replaces the old one:
  a result dbt could not load is refused in one line, the seed left as it was, no temporary.
"""

from __future__ import annotations

import csv
import subprocess
from pathlib import Path

import duckdb
import pytest
from project import BIN, Project, copy_project

from paperrank.cli import run

HEADER = ("venue", "paper_id", "category", "selected_by", "note")
QUOTED = 'say "hi", ok'
ROWS = 30_000
QUOTED_AT = 25_000  # after DuckDB's sniffer sample of 20,480 rows


def write_seed(path: Path) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(HEADER)
        for i in range(ROWS):
            writer.writerow(("ICLR 2026", f"p{i:05d}", "Agentic AI", "Ann",
                             QUOTED if i == QUOTED_AT else "plain"))


@pytest.mark.e2e
def test_a_quoted_note_past_the_sniffer_sample_loads_in_dbt_seed(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project")
    write_seed(root / "seeds" / "expert_selections.csv")
    project = Project(tmp_path / "w.duckdb", tmp_path, root=root)
    result = project.dbt("seed", "--select", "expert_selections", check=False)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    con = duckdb.connect(str(project.db), read_only=True)
    try:
        count, quoted = con.execute(
            "select count(*), max(note) filter (where paper_id = ?) "
            "from seeds.expert_selections", [f"p{QUOTED_AT:05d}"]).fetchone()
    finally:
        con.close()
    assert (count, quoted) == (ROWS, QUOTED)


def test_a_hand_edit_dbt_cannot_load_is_named_with_file_and_line(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project")
    path = root / "seeds" / "taxonomies.csv"
    path.write_text(path.read_text(encoding="utf-8").replace(",true,true,1,", ",true,true,99999999999,", 1),
                    encoding="utf-8")
    result = subprocess.run([str(BIN / "python"), "-m", "paperrank", "quality", "seeds"], cwd=root,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 1, result.stdout + result.stderr
    assert ("seeds/taxonomies.csv line 2: dbt's seed load fails: Error when converting column "
            '"sort_order". Could not convert string "99999999999" to \'INTEGER\'') in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_an_import_whose_result_dbt_cannot_load_leaves_the_seed(tmp_path: Path, capsys) -> None:
    """The seed's folder declares paper_id an integer: the merged seed would not load."""
    db = tmp_path / "warehouse.duckdb"
    con = duckdb.connect(str(db))
    try:
        con.execute("create schema marts")
        con.execute("create table marts.paper_rankings as "
                    "select 'ICLR 2026' as venue, 'n1' as paper_id, 'Agents' as category")
        con.execute("create table marts.excluded_papers (venue varchar, paper_id varchar, "
                    "category varchar, exclusion_reason varchar, exclusion_detail varchar)")
    finally:
        con.close()
    folder = tmp_path / "seeds"
    folder.mkdir()
    (folder / "_seeds.yml").write_text(
        "version: 2\nseeds:\n  - name: expert_selections\n    config:\n      column_types:\n"
        "        paper_id: integer\n", encoding="utf-8")
    seed = folder / "expert_selections.csv"
    seed.write_text(",".join(HEADER) + "\n", encoding="utf-8")
    picks = tmp_path / "ann.csv"
    picks.write_text(",".join(HEADER) + "\nICLR 2026,n1,Agents,Ann,fine\n", encoding="utf-8")
    code = run(["picks", "import", str(picks), "--db", str(db), "--seed", str(seed)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert (f"error: {seed} line 2: dbt's seed load fails: Error when converting column "
            '"paper_id"') in err
    assert f"{seed} was left as it was" in err
    assert seed.read_text(encoding="utf-8") == ",".join(HEADER) + "\n"
    assert sorted(p.name for p in folder.iterdir()) == [".expert_selections.csv.lock",
                                                       "_seeds.yml", "expert_selections.csv"]


def test_a_seed_field_over_the_csv_limit_is_named_with_its_line(tmp_path: Path) -> None:
    """dbt reads a seed with Python's csv first: a field over its limit would stop it."""
    root = copy_project(tmp_path / "project")
    long_note = "x" * 200_000
    (root / "seeds" / "expert_selections.csv").write_text(
        ",".join(HEADER) + f"\nICLR 2026,p1,Agentic AI,Ann,\"{long_note}\"\nICLR 2026,p2,Agentic AI,Ann,\n",
        encoding="utf-8")
    result = subprocess.run([str(BIN / "python"), "-m", "paperrank", "quality", "seeds"], cwd=root,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.splitlines()[0] == (
        "seeds/expert_selections.csv line 2: field 'note' is 200,000 characters long, larger "
        "than the field limit (131,072)")
