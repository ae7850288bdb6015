"""The ranking path at a chosen size against one hand-written DuckDB statement.

For each data shape a synthetic venue of the chosen size is written into a warehouse file of its
own (bench/raw_layer.py), the seeds are loaded, and then, close together so that a loaded
machine slows both alike:

- `dbt run --threads 1` builds every model (one dbt thread, so each model's seconds in
  run_results.json are its own; DuckDB keeps the profile's threads and memory_limit), in a fresh
  process whose peak RSS is measured;
- the two hand-written statements run in one DuckDB connection with the profile's settings, best
  of RUNS warm runs each: bench/limit_numbers.sql (the ranking's numbers alone) and the same query written as a
  table with every column of raw.papers beside it.

It prints, per shape: the ranking path's seconds (marts.paper_rankings and every model upstream
of it, read from dbt's manifest; a view or an ephemeral model costs its readers) and its ratio
to the written statement, every model's seconds and its ratio to the numbers-only statement,
the dbt process's peak RSS, and the rank comparison of marts.paper_rankings against the written
statement (bench.check: ranks equal but for near-ties, composites to 1e-9). The output is
markdown, the tables bench/million.md holds.

    python -m bench.million [--size 1M] [--shapes short,long,twenty] [--runs 3]
                            [--repeats 1] [--work output/million] [--project DIR]
                            [--reuse] [--alone]

`--alone` adds, per shape, each table of the path timed alone (its compiled statement) and copied
as it is (its writing alone), beside the written limit's table copied: where the path's excess
over the limit lies.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pandas as pd

from bench import check
from bench.limit import MEMORY_LIMIT, THREADS
from bench.measure import measure
from bench.ranking import scratch_project
from bench.raw_layer import TWENTY_CATEGORIES, TWENTY_TAXONOMY, many_categories, shape_taxonomy

REPO = Path(__file__).resolve().parents[1]
DBT = str(Path(sys.executable).parent / "dbt")
HERE = Path(__file__).resolve().parent
LIMIT_SQL = HERE / "limit_numbers.sql"
NUMBERS_TABLE = "bench.limit_numbers"
WRITTEN_TABLE = "bench.limit_written"
# the shapes of this benchmark (bench.raw_layer.SHAPES): `short` is the reference venue
# (one-word titles and abstracts, 5 ranked categories), `long` has ~1,500-character abstracts,
# `twenty` 20 ranked categories
SHAPES = ("short", "long", "twenty")
RANKING_MART = "model.paperrank.paper_rankings"
# the targets
PATH_TARGET = 1.5  # the ranking path over the written statement
MODEL_TARGET = 2.5  # any model over the numbers-only statement
# models faster than this are summed in one line of the table, not listed
LISTED_SECONDS = 0.1


def parse_size(text: str) -> int:
    """Papers from `10k`, `100k`, `1M` or a plain number."""
    value = text.strip().lower().replace("_", "").replace(",", "")
    factor = {"k": 1_000, "m": 1_000_000}.get(value[-1:], 1)
    digits = value[:-1] if factor > 1 else value
    if not digits.isdigit() or int(digits) * factor < 1:
        raise ValueError(f"size {text!r}: a whole number of papers, e.g. 10k, 100k or 1M")
    return int(digits) * factor


@dataclass(frozen=True)
class RankComparison:
    """marts.paper_rankings against a hand-written ranking: papers both rank, papers whose rank
    moved only among composites equal within check.TOLERANCE (near_ties), the largest composite
    difference, and every other difference (problems; none when the ranks are equal)."""

    papers: int
    near_ties: int
    max_composite_difference: float
    problems: tuple[str, ...]

    @property
    def equal(self) -> bool:
        return not self.problems

    def __str__(self) -> str:
        ties = f", {self.near_ties} near-tie swaps" if self.near_ties else ""
        verdict = "ranks equal" if self.equal else "RANKS DIFFER: " + "; ".join(self.problems)
        return (f"{verdict} ({self.papers:,} papers{ties}), max composite difference "
                f"{self.max_composite_difference:.2g}")


def compare_ranks(expected: pd.DataFrame, actual: pd.DataFrame) -> RankComparison:
    """Compare two rankings of check.KEY columns (paper_id, category, category_rank,
    local_top_overall)."""
    both = expected.merge(actual, on="paper_id", suffixes=("_e", "_a"))
    gap = (both["local_top_overall_e"] - both["local_top_overall_a"]).abs().max()
    return RankComparison(
        papers=len(both),
        near_ties=check.near_tie_swaps(expected, actual),
        max_composite_difference=float(gap) if len(both) else 0.0,
        problems=tuple(check.differences(expected, actual)),
    )


@dataclass(frozen=True)
class Shape:
    name: str
    papers: int
    work: Path
    project: Path  # the dbt project to build (shape_project)

    @property
    def label(self) -> str:
        return f"{self.name}-{self.papers}"

    @property
    def db(self) -> Path:
        return self.work / f"{self.label}.duckdb"

    @property
    def taxonomy(self) -> str:
        return shape_taxonomy(self.name)

    def env(self) -> dict[str, str]:
        return dict(os.environ, PAPERRANK_DB=str(self.db), PAPERRANK_PUBLISHED_DB=str(self.db),
                    DBT_PROFILES_DIR=str(REPO))


def shape_project(name: str, work: Path, project: Path = REPO) -> Path:
    """The dbt project to build (the repository's, or another copy of it), or for `twenty` a
    fresh scratch copy of it whose seeds add the shape's taxonomy."""
    if name != "twenty":
        return project
    return scratch_project(work, TWENTY_TAXONOMY, many_categories(TWENTY_CATEGORIES),
                           refresh=True, source=project)


@dataclass(frozen=True)
class Build:
    seconds: dict[str, float]  # model name -> execution_time of run_results.json
    path: list[str]  # the models of the ranking path
    wall_s: float
    peak_rss_mb: float

    @property
    def path_s(self) -> float:
        """The path's models' seconds; an ephemeral model runs inside its readers (it is no
        node of dbt's run), so it counts there and has no seconds of its own."""
        return sum(self.seconds.get(m, 0.0) for m in self.path)


def prepare(shape: Shape, raw: bool = True) -> None:
    """A fresh raw layer of the shape (unless not `raw`), then the project's seeds (not timed)."""
    shape.work.mkdir(parents=True, exist_ok=True)
    if raw:
        shape.db.unlink(missing_ok=True)
        subprocess.run([sys.executable, "-m", "bench.raw_layer", "--db", str(shape.db),
                        "--papers", str(shape.papers), "--shape", shape.name], cwd=REPO,
                       env=shape.env(), check=True, capture_output=True, text=True)
    subprocess.run(dbt_command(shape, "seed"), cwd=REPO, env=shape.env(), check=True,
                   capture_output=True, text=True)


def dbt_command(shape: Shape, *args: str) -> list[str]:
    target = shape.work / "dbt" / shape.label
    return [DBT, *args, "--vars", json.dumps({"taxonomy": shape.taxonomy}),
            "--target-path", str(target / "target"), "--log-path", str(target / "logs"),
            "--project-dir", str(shape.project)]


def upstream_models(manifest: dict, node: str) -> list[str]:
    """`node` and every model it reads, directly or not (names, not unique ids)."""
    parents = manifest["parent_map"]
    seen, todo = {node}, [node]
    while todo:
        for parent in parents.get(todo.pop(), []):
            if parent.startswith("model.") and parent not in seen:
                seen.add(parent)
                todo.append(parent)
    return sorted(uid.split(".")[-1] for uid in seen)


def build(shape: Shape) -> Build:
    """`dbt run --threads 1` of every model, in a fresh measured process."""
    command = dbt_command(shape, "run", "--threads", "1")
    result = measure(command, cwd=REPO, env=dict(shape.env(), PAPERRANK_DBT_THREADS="1"))
    target = shape.work / "dbt" / shape.label / "target"
    results = json.loads((target / "run_results.json").read_text(encoding="utf-8"))
    manifest = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
    seconds = {r["unique_id"].split(".")[-1]: r["execution_time"] for r in results["results"]
               if r["unique_id"].startswith("model.")}
    return Build(seconds, upstream_models(manifest, RANKING_MART), result.wall_s,
                 result.peak_rss_mb)


def limit_statements(query: str) -> tuple[str, str]:
    """The two hand-written limits from the one query: its numbers written alone, and the same
    numbers with every column of raw.papers joined last (the papers' texts never ride through
    the windows' sorts)."""
    numbers = f"create or replace table {NUMBERS_TABLE} as\n{query}"
    written = (f"create or replace table {WRITTEN_TABLE} as\nwith ranked as (\n{query}\n)\n"
               "select papers.*, ranked.* exclude (venue, paper_id)\n"
               "from ranked\ninner join raw.papers as papers on ranked.paper_id = papers.paper_id")
    return numbers, written


def connect(shape: Shape) -> duckdb.DuckDBPyConnection:
    """The shape's warehouse with the profile's DuckDB settings (threads, memory_limit)."""
    return duckdb.connect(str(shape.db), config={"threads": THREADS, "memory_limit": MEMORY_LIMIT})


def best_warm_runs(con: duckdb.DuckDBPyConnection, statements: list[str], runs: int) -> list[float]:
    """Each statement's fewest seconds of `runs` warm runs, the statements alternated (so that
    a machine that slows down slows them alike), after one run of each to warm the file's
    pages."""
    best = [float("inf")] * len(statements)
    for run in range(runs + 1):
        for i, sql in enumerate(statements):
            started = time.perf_counter()
            con.execute(sql)
            if run:  # the first is the warm-up
                best[i] = min(best[i], time.perf_counter() - started)
    return best


def limits(shape: Shape, runs: int) -> tuple[float, float]:
    """Best of `runs` warm runs of each hand-written statement (numbers only, written)."""
    con = connect(shape)
    try:
        con.execute("create schema if not exists bench")
        con.execute(f"set variable taxonomy = '{shape.taxonomy}'")
        con.execute("set variable weight_set = 'article_2026'")
        con.execute("set variable top_n = 30")
        numbers, written = best_warm_runs(
            con, list(limit_statements(LIMIT_SQL.read_text(encoding="utf-8"))), runs)
        return numbers, written
    finally:
        con.close()


def comparison(shape: Shape) -> RankComparison:
    return compare_ranks(check.read_table(shape.db, WRITTEN_TABLE),
                         check.read_table(shape.db, "marts.paper_rankings"))


def render(shape: Shape, built: Build, numbers_s: float, written_s: float,
           ranks: RankComparison, load: tuple[float, float], paired: list[float]) -> str:
    """The shape's markdown: a summary line each, then one row per model of LISTED_SECONDS or
    more (the path's models marked), slowest first. `paired`: each repeat's path over the written
    statement timed right after it, which a machine's drift between repeats moves less."""
    path_ratio = built.path_s / written_s
    inlined = sum(m not in built.seconds for m in built.path)
    slowest = max(built.seconds, key=built.seconds.__getitem__)
    slowest_ratio = built.seconds[slowest] / numbers_s
    over = [m for m, s in built.seconds.items() if s / numbers_s > MODEL_TARGET]
    lines = [
        f"### {shape.name}, {shape.papers:,} papers",
        "",
        f"- hand-written statement, best of its warm runs: numbers only {numbers_s:.2f} s, "
        f"written with every raw.papers column {written_s:.2f} s",
        f"- ranking path ({len(built.path)} models, {inlined} of them ephemeral): "
        f"{built.path_s:.2f} s = "
        f"**{path_ratio:.2f}x** the written statement (target {PATH_TARGET}x); each repeat "
        f"against the statement timed right after it: "
        f"{', '.join(f'{r:.2f}' for r in paired)}x (median {statistics.median(paired):.2f}x)",
        f"- slowest model: {slowest} {built.seconds[slowest]:.2f} s = "
        f"**{slowest_ratio:.2f}x** the numbers-only statement (target {MODEL_TARGET}x); "
        f"models over the target: {', '.join(sorted(over)) or 'none'}",
        f"- every model: {sum(built.seconds.values()):.2f} s; dbt run wall {built.wall_s:.2f} s, "
        f"peak RSS {built.peak_rss_mb:.0f} MB (memory_limit {MEMORY_LIMIT}, "
        f"{THREADS} DuckDB threads)",
        f"- marts.paper_rankings against the written statement: {ranks}",
        f"- load average {load[0]:.2f} before, {load[1]:.2f} after ({os.cpu_count()} cores)",
        "",
        "| model | s | x numbers-only |",
        "|---|---|---|",
    ]
    rest = 0.0
    for model, seconds in sorted(built.seconds.items(), key=lambda item: -item[1]):
        if seconds < LISTED_SECONDS:
            rest += seconds
            continue
        name = f"{model} (path)" if model in built.path else model
        lines.append(f"| {name} | {seconds:.2f} | {seconds / numbers_s:.2f} |")
    lines.append(f"| *{sum(s < LISTED_SECONDS for s in built.seconds.values())} models under "
                 f"{LISTED_SECONDS} s* | {rest:.2f} | {rest / numbers_s:.2f} |")
    lines.append(f"| *ranking path* | {built.path_s:.2f} | {built.path_s / numbers_s:.2f} |")
    return "\n".join(lines)


def path_tables(shape: Shape, path: list[str], runs: int) -> str:
    """Each table of the ranking path, its compiled statement timed alone, and the same table
    copied as it is (its writing alone), best of `runs` warm runs each with the profile's
    settings, beside the written limit's table copied: where the path's seconds go."""
    target = shape.work / "dbt" / shape.label / "target"
    manifest = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
    tables = sorted((node["name"], node) for node in manifest["nodes"].values()
                    if node["resource_type"] == "model" and node["name"] in path
                    and node["config"]["materialized"] == "table")
    con = connect(shape)
    try:
        lines = ["| table of the path | statement alone s | copied as it is s |", "|---|---|---|"]
        for name, node in tables:
            compiled = target / "compiled" / node["package_name"] / node["original_file_path"]
            alone, copied = best_warm_runs(con, [
                f"create or replace table bench.path_alone as\n{compiled.read_text(encoding='utf-8')}",
                f"create or replace table bench.path_copy as select * from {node['relation_name']}",
            ], runs)
            lines.append(f"| {name} | {alone:.2f} | {copied:.2f} |")
        [written] = best_warm_runs(
            con, [f"create or replace table bench.path_copy as select * from {WRITTEN_TABLE}"], runs)
        lines.append(f"| the written limit's table | | {written:.2f} |")
        con.execute("drop table if exists bench.path_alone")
        con.execute("drop table if exists bench.path_copy")
        return "\n".join(lines)
    finally:
        con.close()


def fastest(builds: list[Build]) -> Build:
    """Of repeated builds, each model's fewest seconds, the path's and the peak memory's most
    (a loaded machine only ever adds time)."""
    first = builds[0]
    seconds = {m: min(b.seconds[m] for b in builds) for m in first.seconds}
    return Build(seconds, first.path, min(b.wall_s for b in builds),
                 max(b.peak_rss_mb for b in builds))


def bench_shape(shape: Shape, runs: int, repeats: int, reuse: bool,
                alone: bool = False) -> tuple[str, RankComparison]:
    raw = not (reuse and shape.db.exists())
    print(f"[{shape.label}] writing {'the raw layer and ' if raw else ''}the seeds into "
          f"{shape.db}", flush=True)
    prepare(shape, raw)
    load_before = os.getloadavg()[0]
    builds, numbers, written = [], [], []
    paired: list[float] = []
    for repeat in range(1, repeats + 1):
        print(f"[{shape.label}] {repeat}/{repeats}: dbt run --threads 1 (load "
              f"{os.getloadavg()[0]:.2f}), then the hand-written statements, best of {runs}",
              flush=True)
        builds.append(build(shape))
        numbers_s, written_s = limits(shape, runs)
        numbers.append(numbers_s)
        written.append(written_s)
        paired.append(builds[-1].path_s / written_s)
    ranks = comparison(shape)
    text = render(shape, fastest(builds), min(numbers), min(written), ranks,
                  (load_before, os.getloadavg()[0]), paired)
    if alone:
        text += "\n\n" + path_tables(shape, builds[0].path, runs)
    return text, ranks


def run(size: int, shapes: Iterable[str], runs: int, work: Path, reuse: bool,
        project: Path = REPO, repeats: int = 1, alone: bool = False) -> int:
    equal = True
    for name in shapes:
        work.mkdir(parents=True, exist_ok=True)
        shape = Shape(name, size, work, shape_project(name, work, project))
        text, ranks = bench_shape(shape, runs, repeats, reuse, alone)
        equal = equal and ranks.equal
        print("\n" + text + "\n", flush=True)
    return 0 if equal else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.million", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", default="1M", help="papers: 10k, 100k, 1M or a number")
    parser.add_argument("--shapes", default=",".join(SHAPES),
                        help=f"comma-separated, of {', '.join(SHAPES)} (default: all)")
    parser.add_argument("--runs", type=int, default=3,
                        help="warm runs of each hand-written statement; the best counts")
    parser.add_argument("--work", type=Path, default=REPO / "output" / "million",
                        help="folder of the warehouses and dbt's target and logs")
    parser.add_argument("--repeats", type=int, default=1,
                        help="build and time the statements this many times; each model's "
                             "and each statement's fewest seconds count")
    parser.add_argument("--project", type=Path, default=REPO,
                        help="the dbt project to build: this repository's (default) or a copy, "
                             "e.g. `git archive` of another commit's models, macros and seeds")
    parser.add_argument("--reuse", action="store_true",
                        help="keep a shape's raw layer from an earlier run (same size)")
    parser.add_argument("--alone", action="store_true",
                        help="also time each table of the ranking path alone, and copied as it is")
    args = parser.parse_args(argv)
    try:
        size = parse_size(args.size)
    except ValueError as error:
        parser.error(str(error))
    shapes = [s.strip() for s in args.shapes.split(",") if s.strip()]
    unknown = sorted(set(shapes) - set(SHAPES))
    if unknown or not shapes:
        parser.error(f"unknown shape(s) {unknown}; choose from {', '.join(SHAPES)}")
    if args.runs < 1 or args.repeats < 1:
        parser.error("--runs and --repeats must be at least 1")
    if shutil.which(DBT) is None:
        parser.error(f"no dbt at {DBT} (make setup)")
    return run(size, shapes, args.runs, args.work.resolve(), args.reuse, args.project.resolve(),
               args.repeats, args.alone)


if __name__ == "__main__":
    raise SystemExit(main())
