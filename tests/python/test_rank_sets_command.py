"""`paperrank rank-sets`: the cached SQL is what dbt renders from the models'
macros now (a changed macro renders it again), the command answers exactly as the dbt-rendered
SQL does (docs' worked example, a random table of 500 rows on the exact path, 3,000 on the
scaled one), and its bounds and refusals hold: bad CSVs, numbers outside the safe range, rows
past the bound, a tau too costly, DuckDB out of memory, 1M rows within 2 GB.

dbt parses the project once for the whole module (`rendered`); everything else runs the command
in this process (`paperrank.cli.run`), except the 1M-row run, whose peak RSS is measured in a
process of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pandas as pd
import pytest
from project import copy_project

from paperrank.cli import run as paperrank
from paperrank.ranksets import cache, limits, render
from paperrank.ranksets.sql import settings

REPO = Path(__file__).resolve().parents[2]
PISA = Path(__file__).parent / "fixtures" / "pisa2018_math.csv"
PAPERRANK = Path(sys.executable).parent / "paperrank"
SETTINGS_ENV = (limits.MEMORY_ENV, limits.ROWS_ENV, limits.THREADS_ENV)


@pytest.fixture(autouse=True)
def default_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The project's defaults (1GB, 2 threads, the derived row bound), whatever the shell set."""
    for name in SETTINGS_ENV:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="module")
def rendered() -> Iterator[Any]:
    """compile(jinja) -> SQL on one dbt parse of the project (target `published`: no warehouse)."""
    with render.dbt_session() as compile_inline:
        yield compile_inline


def write(path: Path, frame: pd.DataFrame) -> Path:
    frame.to_csv(path, index=False)
    return path


def random_table(rows: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"name": [f"paper {i}" for i in range(rows)],
                         "score": rng.normal(0, 1, rows).round(6),
                         "error": rng.uniform(0.05, 0.8, rows).round(6)})


def command(*args: str, capsys: pytest.CaptureFixture[str] | None = None) -> tuple[int, str]:
    """`paperrank rank-sets <args>` in this process: the exit code and what it printed to stderr."""
    code = paperrank(["rank-sets", *args])
    return code, capsys.readouterr().err if capsys is not None else ""


# --- one source: the SQL is rendered from the macros, never committed ---------------------------

@pytest.mark.e2e
def test_the_cached_sql_is_what_the_macros_render(rendered: Any) -> None:
    """The folder the command reads holds what dbt renders from macros/rank_sets/ now (two sets of
    sentinel options give the same text once each option is a parameter: every use of an option
    is a plain number), and no other file; none of it is in git."""
    files = render.render_all(rendered)
    folder = cache.compiled()
    assert {path.name for path in folder.iterdir()} == set(files)
    for name, text in files.items():
        assert (folder / name).read_text(encoding="utf-8") == text, name
    for name in render.QUERIES:
        sql = files[name]
        assert "$coverage" in sql and "$draws" in sql and "$seed" in sql
        assert ("$tau" in sql) == name.endswith("_tau.sql")
    tracked = subprocess.run(["git", "ls-files", "paperrank/ranksets", ".cache"], cwd=REPO,
                             capture_output=True, text=True, check=True).stdout.split()
    assert not [path for path in tracked if not path.endswith(".py")], tracked


@pytest.mark.e2e
def test_a_changed_macro_renders_the_sql_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache rendered before a macro changed is never read: the changed project's SQL is
    rendered into a folder of its own and the stale one removed; an unchanged project's is read
    again without rendering."""
    root = copy_project(tmp_path / "project")
    folder = tmp_path / "cache"
    first = cache.compiled(root, folder)
    assert json.loads((first / "settings.json").read_text())["steps"] == 3
    macro = root / "macros" / "rank_sets" / "rank_sets_settings.sql"
    text = macro.read_text(encoding="utf-8")
    assert "'steps': 3," in text
    macro.write_text(text.replace("'steps': 3,", "'steps': 4,"), encoding="utf-8")
    second = cache.compiled(root, folder)
    assert json.loads((second / "settings.json").read_text())["steps"] == 4
    assert second != first and not first.exists()
    assert (second / "exact.sql").read_text() != ""

    def no_render(*args: Any) -> None:
        raise AssertionError("rendered again, though no source changed")

    monkeypatch.setattr(render, "render_files", no_render)
    assert cache.compiled(root, folder) == second


def test_the_cache_key_follows_every_macro_and_the_project_settings(tmp_path: Path) -> None:
    """The hash the cache is named by changes with any macro's text (not only the rank-set
    macros: they call shims and random-number macros) and with dbt_project.yml, and with nothing
    else of the project."""
    root = copy_project(tmp_path / "project")
    key = cache.sources_key(root)
    (root / "models" / "docs.md").write_text("changed", encoding="utf-8")
    assert cache.sources_key(root) == key
    for path in (root / "macros" / "random" / "splitmix64.sql", root / "dbt_project.yml"):
        path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
        assert cache.sources_key(root) != key
        key = cache.sources_key(root)


def test_a_sentinel_left_in_the_sql_is_refused() -> None:
    """The renderer refuses SQL where an option does not appear as its sentinel number, or a
    '$' is there already (it would be taken for a parameter)."""
    sentinels = render.SENTINELS[0]
    good = (f"select quantile_cont(x, {sentinels['coverage']!r}) from range(1, {sentinels['draws']} + 1) "
            f"where s = {sentinels['seed']}")
    assert render.parameterised(good, sentinels, with_tau=False).count("$") == 3
    with pytest.raises(render.RenderFailed, match="coverage"):
        render.parameterised(good.replace(repr(sentinels["coverage"]), "0.5"), sentinels, with_tau=False)
    with pytest.raises(render.RenderFailed, match="tau"):
        render.parameterised(good, sentinels, with_tau=True)
    with pytest.raises(render.RenderFailed, match="'\\$'"):
        render.parameterised(good + " and y = '$x'", sentinels, with_tau=False)


def test_an_option_the_macros_compute_with_is_refused() -> None:
    """An option that a macro does arithmetic with (here the draws, modulo 7) renders differently
    under the two sentinel sets even once the sentinel itself is a parameter: refused."""
    def compile_inline(jinja: str) -> str:
        if "rank_sets_settings" in jinja:
            return "{}"
        options = json.loads(jinja[jinja.index("{", 3):jinja.rindex("}", 0, -3) + 1])
        return (f"select quantile_cont(x, {options['coverage']!r}), {options['draws'] % 7} "
                f"from range(1, {options['draws']} + 1) where s = {options['seed']}"
                + (f" and t <= {options['tau']}" if "tau" in options else ""))
    with pytest.raises(render.RenderFailed, match="does more with an option than write it as a number"):
        render.render_all(compile_inline)


def test_the_exact_path_needs_its_draws_and_its_pairs_to_fit() -> None:
    """As the models choose (rows x draws within rank_sets_row_budget), and rows^2 within twice
    that, since the exact bounds compare every pair: with few draws a large table still takes
    the scaled path."""
    budget = settings()["row_budget"]
    assert limits.choose_path(2_000, 1000, settings()) == "exact" and budget == 2_000_000
    assert limits.choose_path(2_001, 1000, settings()) == "scaled"
    assert limits.choose_path(2_001, 10, settings()) == "scaled"
    assert limits.choose_path(9, 100000, settings()) == "exact"  # too small for the scaled draws


# --- the command's answer is the dbt path's ---------------------------------------------------

def dbt_answer(rendered: Any, macro: str, options: dict[str, Any], table: pd.DataFrame,
               columns: tuple[str, str, str]) -> pd.DataFrame:
    """The rank sets by the SQL dbt renders now from `macro` with these options written in as
    literals, over the table read by pandas (file order), as the command would print them."""
    sql = rendered(render.query_call(macro, options))
    frame = pd.DataFrame({"item_key": table[columns[0]].astype(str),
                          "item_number": range(1, len(table) + 1),
                          "estimate": table[columns[1]].astype(float),
                          "se": table[columns[2]].astype(float)})
    with tempfile.TemporaryDirectory() as spill:
        con = duckdb.connect(":memory:", config={"threads": 2, "memory_limit": "1GB", "temp_directory": spill})
        try:
            con.register(render.INPUT, frame)
            return con.execute(sql).df()
        finally:
            con.close()


CASES = {
    # docs/rank-confidence-sets.md's worked example: csranks' PISA 2018 table, --tau 5
    "worked example": ("pisa", "exact", {"coverage": 0.95, "draws": 1000, "seed": 2026, "tau": 5}),
    "500 rows": ("random:500", "exact", {"coverage": 0.95, "draws": 1000, "seed": 2026}),
    "500 rows, other options": ("random:500", "exact", {"coverage": 0.9, "draws": 300, "seed": 11, "tau": 20}),
    "3,000 rows (scaled)": ("random:3000", "scaled", {"coverage": 0.95, "draws": 1000, "seed": 2026, "tau": 30}),
    "3,000 rows (scaled), no tau": ("random:3000", "scaled", {"coverage": 0.8, "draws": 200, "seed": 5}),
}


@pytest.mark.e2e
@pytest.mark.parametrize("case", list(CASES))
def test_the_command_answers_as_the_dbt_path(case: str, rendered: Any, tmp_path: Path) -> None:
    source, path, options = CASES[case]
    if source == "pisa":
        table, columns, csv = pd.read_csv(PISA), ("jurisdiction", "math_score", "math_se"), PISA
    else:
        table, columns = random_table(int(source.split(":")[1]), seed=500), ("name", "score", "error")
        csv = write(tmp_path / "table.csv", table)
    assert limits.choose_path(len(table), options["draws"], settings()) == path
    out = tmp_path / "sets.csv"
    flags = [f"--{name}={value}" for name, value in options.items()]
    code = paperrank(["rank-sets", str(csv), "--id", columns[0], "--estimate", columns[1], "--se", columns[2],
                      *flags, "--out", str(out)])
    assert code == 0
    got = pd.read_csv(out, dtype={"id": str})
    macro = "rank_sets_query" if path == "exact" else "rank_sets_scaled_query"
    expected = dbt_answer(rendered, macro, options, table, columns)
    pd.testing.assert_frame_equal(got, expected, check_exact=True, check_dtype=False)
    assert len(got) == len(table) and got["rank"].is_monotonic_increasing
    if path == "scaled":  # the scaled path's sets are sets: within 1..n, marginal inside simultaneous
        assert (got.simultaneous_lower <= got.marginal_lower).all()
        assert (got.marginal_upper <= got.simultaneous_upper).all()
        assert (got.marginal_lower <= got["rank"]).all() and (got["rank"] <= got.marginal_upper).all()


# --- bad input: one line, exit 2, naming the file, line, row and column --------------------------

@pytest.mark.parametrize(("content", "message"), [
    # one field too many in every row shifted the columns silently
    ("id,est,err\np1,1.0,0.2,5\np2,0.5,0.3,7\n", "line 2: 4 fields, the header has 3"),
    ("id,est,err\np1,1.0,0.2\np2,0.5\n", "line 3: 2 fields, the header has 3"),
    ('id,est,err\np1,1.0,"0.2\np2,0.5,0.3\n', "line 2: not valid CSV (unexpected end of data"),
    ('id,est,err\np1,1.0,"0.2"x\n', "line 2: not valid CSV"),
    ("id,est,err\np1,1.0,0.2\np2,0.5\x00,0.3\n", "line 3: a NUL byte"),
    ("id,est,id\np1,1.0,0.2\n", "line 1: the header names 'id' twice (columns 1 and 3)"),
    ("id,est,,err\np1,1.0,x,0.2\n", "line 1: the header's column 3 has no name"),
    ("", "empty, no header line"),
    ("id,est,err\n", "no rows"),
    ("name,est,err\na,1,0.5\n", "no column 'id'"),
    ("id,est,err\na,1,0.5\nb,high,0.5\n", "line 3 (id 'b'): est 'high' is not a finite number"),
    ("id,est,err\na,1,0.5\nb,nan,0.5\n", "line 3 (id 'b'): est 'nan' is not a finite number"),
    ("id,est,err\na,1,0.5\nb,1e400,0.5\n", "line 3 (id 'b'): est '1e400' is not a finite number"),
    ("id,est,err\na,1,0.5\nb,1_000,0.5\n", "line 3 (id 'b'): est '1_000' is not a finite number"),
    ("id,est,err\na,1,0.5\nb,\u0661,0.5\n", "line 3 (id 'b'): est '\u0661' is not a finite number"),
    ("id,est,err\na,1,0.5\nb,2,0\n", "line 3 (id 'b'): err = '0' must be > 0"),
    ("id,est,err\na,1,0.5\nb,2,-1\n", "line 3 (id 'b'): err = '-1' must be > 0"),
    ("id,est,err\na,1,0.5\nb,2,\n", "line 3 (id 'b'): err missing"),
    # a finite se of 1e308 made every set [1, n]
    ("id,est,err\na,1,0.5\nb,2,1e308\n", "line 3 (id 'b'): err = '1e308' is outside the safe range 1e-100 to 1e100"),
    ("id,est,err\na,1,0.5\nb,2,1e-101\n", "line 3 (id 'b'): err = '1e-101' is outside the safe range"),
    ("id,est,err\na,1,0.5\nb,2,1e-400\n", "line 3 (id 'b'): err = '1e-400' is outside the safe range"),
    ("id,est,err\na,1,0.5\nb,-2e100,0.5\n", "line 3 (id 'b'): est = '-2e100' is outside the safe range"),
    ("id,est,err\na,1,0.5\nb,1e-101,0.5\n", "line 3 (id 'b'): est = '1e-101' is outside the safe range"),
    ("id,est,err\na,1,0.5\nb,1e-400,0.5\n", "line 3 (id 'b'): est = '1e-400' is outside the safe range"),
    ("id,est,err\na,1,0.5\na,2,0.5\n", "line 3 (id 'a'): id repeats line 2"),
    ("id,est,err\n,1,0.5\n", "line 2: id is empty"),
    ('id,est,err\n"a\nb",1,0.5\nc,x,0.5\n', "line 4 (id 'c'): est 'x' is not a finite number"),
])
def test_bad_input_is_one_line_naming_the_row(content: str, message: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "estimates.csv"
    path.write_text(content, encoding="utf-8")
    code, err = command(str(path), "--id", "id", "--estimate", "est", "--se", "err", capsys=capsys)
    assert code == 2 and err.strip().count("\n") == 0, err
    assert f"error: {path}" in err and message in err, err


def test_the_safe_range_ends_are_answered(tmp_path: Path) -> None:
    """The ends of the safe range are in it and keep their arithmetic: a at 1e100 and b at 0,
    both with se 1e-100, are 7e199 pair sds apart (a beats b); c and d, with se 1e100, are within
    about one pair sd of everything (no pair with them is decided)."""
    path = tmp_path / "ends.csv"
    path.write_text("id,est,err\na,1e100,1e-100\nb,0,1e-100\nc,-1e100,1e100\nd,1e-100,1e100\n")
    out = tmp_path / "out.csv"
    assert command(str(path), "--id", "id", "--estimate", "est", "--se", "err", "--out", str(out))[0] == 0
    result = pd.read_csv(out).set_index("id")
    sets = {name: (row.marginal_lower, row.marginal_upper) for name, row in result.iterrows()}
    assert sets == {"a": (1, 3), "b": (2, 4), "c": (1, 4), "d": (1, 4)}


@pytest.mark.parametrize(("option", "environment", "message"), [
    (["--coverage", "1"], {}, "--coverage 1.0 must be strictly between 0 and 1"),
    (["--tau", "3"], {}, "--tau 3 must be from 1 to the number of rows (2)"),
    (["--draws", "5"], {}, "--draws 5 must be from 10 to 100000"),
    (["--seed", "-1"], {}, "--seed -1 must be from 0 to 2^63 - 1"),
    (["--max-rows", "0"], {}, "--max-rows 0: a whole number from 1 to 10,000,000"),
    ([], {limits.ROWS_ENV: "many"}, "PAPERRANK_RANK_SETS_MAX_ROWS='many': a whole number"),
    ([], {limits.ROWS_ENV: "20000000"}, "PAPERRANK_RANK_SETS_MAX_ROWS 20000000: a whole number from 1 to"),
    ([], {limits.MEMORY_ENV: "lots"}, "PAPERRANK_MEMORY_LIMIT='lots' is not a memory size"),
    ([], {limits.MEMORY_ENV: "-1"}, "PAPERRANK_MEMORY_LIMIT='-1' is not a memory size"),
    ([], {limits.MEMORY_ENV: "1XB"}, "PAPERRANK_MEMORY_LIMIT='1XB' is not a memory size"),
    ([], {limits.MEMORY_ENV: "1MB"}, "PAPERRANK_MEMORY_LIMIT='1MB' is below the 16MB"),
    ([], {limits.MEMORY_ENV: "0%"}, "a percentage of the memory from 1 to 100"),
    ([], {limits.THREADS_ENV: "0"}, "PAPERRANK_DUCKDB_THREADS='0': a whole number from 1 to 256"),
    (["--se", "est"], {}, "--estimate and --se name the same column 'est'"),
])
def test_bad_options_and_settings_are_refused(option: list[str], environment: dict[str, str], message: str,
                                              tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    path = tmp_path / "estimates.csv"
    path.write_text("id,est,err\na,1,0.5\nb,2,0.5\n")
    code, err = command(str(path), "--id", "id", "--estimate", "est", "--se", "err", *option, capsys=capsys)
    assert code == 2 and err.strip().count("\n") == 0 and message in err, err


def test_thresholds_far_outside_a_narrow_range_are_counted(tmp_path: Path) -> None:
    """The scaled path counts a partner by bins of the estimates' range: with se 1e9 over a range
    of 1e-6 a threshold lies about 1e19 bins away, past a bigint; it is held to the range's ends
    (macros/rank_sets/rank_set_scaled_counts.sql) and every set is the whole table."""
    rows = 3000
    path = write(tmp_path / "narrow.csv", pd.DataFrame({"id": [f"p{i}" for i in range(rows)],
                                                         "est": np.linspace(0, 1e-6, rows), "err": 1e9}))
    out = tmp_path / "out.csv"
    assert limits.choose_path(rows, 1000, settings()) == "scaled"
    assert command(str(path), "--id", "id", "--estimate", "est", "--se", "err", "--tau", "5",
                   "--out", str(out))[0] == 0
    result = pd.read_csv(out)
    assert (result.marginal_lower == 1).all() and (result.simultaneous_upper == rows).all()
    assert result.tau_best.all()


def test_unreadable_files_and_out_folders_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.csv"
    path.write_text("id,est,err\na,1,0.5\n")
    args = ["--id", "id", "--estimate", "est", "--se", "err"]
    code, err = command(str(tmp_path), *args, capsys=capsys)
    assert code == 2 and f"{tmp_path}: no such file (a folder)" in err, err
    code, err = command(str(path), *args, "--out", str(tmp_path / "none" / "o.csv"), capsys=capsys)
    assert code == 2 and f"no folder {tmp_path / 'none'} to write it in" in err, err


def test_a_file_the_os_will_not_open_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Permission denied (the tests run as root, who may read any file: the refusal is made to
    happen by the open call itself)."""
    path = tmp_path / "t.csv"
    path.write_text("id,est,err\na,1,0.5\n")
    real_open = Path.open

    def refuse(self: Path, *args: Any, **kwargs: Any) -> Any:
        if self == path:
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", refuse)
    code, err = command(str(path), "--id", "id", "--estimate", "est", "--se", "err", capsys=capsys)
    assert code == 2 and f"{path}: cannot be read (Permission denied)" in err, err


def test_ids_that_look_like_formulas_are_neutralised(tmp_path: Path) -> None:
    path = tmp_path / "estimates.csv"
    path.write_text("id,est,err\n=HYPERLINK(1),1,0.01\n+a,2,0.01\nplain,3,0.01\n")
    out = tmp_path / "out.csv"
    assert command(str(path), "--id", "id", "--estimate", "est", "--se", "err", "--tau", "1",
                   "--out", str(out))[0] == 0
    lines = out.read_text().splitlines()
    assert [line.split(",")[0] for line in lines[1:]] == ["plain", "'+a", "'=HYPERLINK(1)"]
    assert lines[1].endswith(",TRUE") and lines[2].endswith(",FALSE")


# --- bounds ------------------------------------------------------------------------------------

def table_csv(path: Path, rows: int, tail: str = "") -> Path:
    with path.open("w", encoding="utf-8") as handle:
        handle.write("id,est,err\n")
        handle.writelines(f"p{i},{i % 97 / 10},0.5\n" for i in range(rows))
        handle.write(tail)
    return path


def test_rows_past_the_default_bound_are_refused_before_any_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The default bound is one row per 1,000 bytes of PAPERRANK_MEMORY_LIMIT: 16MB holds 16,000
    rows; the 16,001st is refused while the file is read (a bad row after it is never reached),
    saying the limit and how to raise it."""
    monkeypatch.setenv(limits.MEMORY_ENV, "16MB")
    path = table_csv(tmp_path / "big.csv", 16_001, tail="bad,row\n")
    code, err = command(str(path), "--id", "id", "--estimate", "est", "--se", "err", capsys=capsys)
    assert code == 2 and err.strip().count("\n") == 0, err
    assert f"{path} has more than 16,000 rows" in err
    assert "PAPERRANK_MEMORY_LIMIT=16MB" in err and "--max-rows" in err and limits.ROWS_ENV in err


@pytest.mark.parametrize("source", ["--max-rows", limits.ROWS_ENV])
def test_rows_past_a_set_bound_are_refused_and_at_it_answered(source: str, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    option = ["--max-rows", "20"] if source == "--max-rows" else []
    if not option:
        monkeypatch.setenv(limits.ROWS_ENV, "20")
    args = ["--id", "id", "--estimate", "est", "--se", "err", *option]
    code, err = command(str(table_csv(tmp_path / "over.csv", 21)), *args, capsys=capsys)
    assert code == 2 and "has more than 20 rows, the rank-sets bound set by " + source in err, err
    code, err = command(str(table_csv(tmp_path / "at.csv", 20)), *args, "--out", str(tmp_path / "o.csv"),
                        capsys=capsys)
    assert code == 0, err


def test_a_tau_too_costly_for_the_scaled_path_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = table_csv(tmp_path / "wide.csv", 40_000)
    code, err = command(str(path), "--id", "id", "--estimate", "est", "--se", "err", "--tau", "40000",
                        capsys=capsys)
    assert code == 2 and err.strip().count("\n") == 0, err
    assert "--tau 40000 with 40,000 rows: the scaled path counts" in err and "at most 25,000" in err


def test_out_of_memory_is_one_line_and_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """DuckDB out of memory (the exact path's 2,000 x 1,000 draws under 16MB) is one line naming
    the limit, exit 2; the --out file keeps its old content, and DuckDB's spill folder (a fresh
    one under the temporary directory) is gone."""
    monkeypatch.setenv(limits.MEMORY_ENV, "16MB")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    rng = np.random.default_rng(1)
    path = write(tmp_path / "t.csv", pd.DataFrame({"id": [f"p{i}" for i in range(2000)],
                                                   "est": rng.normal(0, 1, 2000), "err": 0.5}))
    out = tmp_path / "out.csv"
    out.write_text("kept\n")
    code, err = command(str(path), "--id", "id", "--estimate", "est", "--se", "err", "--out", str(out),
                        capsys=capsys)
    assert code == 2 and err.strip().count("\n") == 0, err
    assert "rank-sets ran out of memory with 2,000 rows under PAPERRANK_MEMORY_LIMIT=16MB" in err
    assert f"raise {limits.MEMORY_ENV}" in err
    assert out.read_text() == "kept\n" and sorted(p.name for p in tmp_path.iterdir()) == ["out.csv", "t.csv", "tmp"]
    assert list((tmp_path / "tmp").iterdir()) == []


_MEASURED = """
import json, resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
print(json.dumps({"code": done.returncode, "stderr": done.stderr[-2000:],
                  "peak_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
"""


@pytest.mark.e2e  # a million rows through the whole command: the heaviest test of the module
def test_a_million_rows_are_answered_or_refused_within_2gb(tmp_path: Path) -> None:
    """Under the default memory limit (1GB) 1M rows either get an answer within the row bound
    or one line of refusal; the process never goes above 2 GB of RSS (measured in a process of
    its own, a memory bound, not a timing)."""
    rows = 1_000_000
    rng = np.random.default_rng(36)
    path = tmp_path / "million.csv"
    pd.DataFrame({"id": [f"p{i:07d}" for i in range(rows)], "est": rng.normal(0, 1, rows).round(6),
                  "err": rng.uniform(0.2, 1.0, rows).round(6)}).to_csv(path, index=False)
    out = tmp_path / "out.csv"
    env = {name: value for name, value in os.environ.items() if name not in SETTINGS_ENV}
    done = subprocess.run([sys.executable, "-c", _MEASURED, str(PAPERRANK), "rank-sets", str(path), "--id", "id",
                           "--estimate", "est", "--se", "err", "--tau", "30", "--out", str(out)],
                          capture_output=True, text=True, env=env, timeout=1200, check=True)
    report = json.loads(done.stdout)
    assert report["peak_mb"] < 2048, report
    if report["code"] == 0:
        answer = pd.read_csv(out, usecols=["rank", "marginal_lower", "marginal_upper", "tau_best"])
        assert len(answer) == rows and answer.tau_best.sum() >= 30
        assert (answer.marginal_lower <= answer["rank"]).all() and (answer["rank"] <= answer.marginal_upper).all()
    else:
        assert report["code"] == 2 and report["stderr"].strip().count("\n") == 0, report
        assert report["stderr"].startswith("error: "), report
