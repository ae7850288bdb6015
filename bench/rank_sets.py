"""`python -m bench.rank_sets`: the rank confidence sets (docs/rank-confidence-sets.md), timed.

- `--db WAREHOUSE` (a warehouse built by `dbt run`, e.g. on the real ICLR 2026 data): a copy of
  it, then per run, in a fresh process, `dbt run` of the rank-set models and, as a yardstick
  for how loaded the machine is, of the review bootstrap (int_bootstrap_paper_ranks), each
  with wall time, DuckDB's seconds from dbt's log, and peak RSS.
- `--command 15,10000,100000`: the whole `paperrank rank-sets` command (process start to exit,
  reading the CSV and writing the answer included) on synthetic tables of those sizes, in each
  data shape of `--shapes` (`SHAPES`), with --tau 30 (the scaled path's exact memberships
  included), under the project's defaults (PAPERRANK_MEMORY_LIMIT 1GB): wall time, CPU time,
  peak RSS and the path the command took. The targets: 15 rows within 3 s,
  10,000 within 10 s, 100,000 within 30 s and 2 GB.
- `--scales 1m-short,1m-many` (any scale of `python -m bench`): a synthetic venue of that
  shape is loaded and ranked (untimed), then per run, in a fresh process, `dbt run` of the
  rank-set models under the project's defaults, with wall time, SQL seconds of the models, peak
  RSS, how many categories and papers each path took, and the model that took longest. At 1M
  every category is too large for the exact path (rank_sets_row_budget) and takes the scaled
  one.

Prints a Markdown table with the load average before and after each row. The warehouse given
is never written.

    python -m bench.rank_sets --db warehouse/paperrank.duckdb --vars '{taxonomy: iclr2026}' --runs 3
    python -m bench.rank_sets --command 15,10000,100000 --runs 3
    python -m bench.rank_sets --command 1000000 --runs 1
    python -m bench.rank_sets --scales 1m-short,1m-many --runs 2
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from bench import ranking
from bench.build_vars import recorded_vars
from bench.measure import measure, sql_seconds
from paperrank.ranksets.limits import choose_path
from paperrank.ranksets.sql import settings as rank_set_settings

REPO = Path(__file__).resolve().parents[1]
DBT = str(Path(sys.executable).parent / "dbt")
RANK_SETS = "path:models/intermediate/rank_confidence_sets"

PAPERRANK = str(Path(sys.executable).parent / "paperrank")
# name -> (estimates, standard errors) of n rows from a numpy generator
SHAPES: dict[str, Any] = {
    # composites ~ N(0, 1), se ~ U(0.2, 1): most sets wide, as on the real data
    "noisy": lambda rng, n: (rng.normal(0, 1, n), rng.uniform(0.2, 1.0, n)),
    # estimates 1 apart with se 0.05: almost every set a single rank
    "separated": lambda rng, n: (np.arange(n, dtype=float), np.full(n, 0.05)),
    # estimates in steps of 0.1 (many ties) and one se for all
    "ties": lambda rng, n: (np.round(rng.normal(0, 1, n), 1), np.full(n, 0.5)),
    # se with a heavy tail (log-normal, sd 1.5): the scaled path's widest cells of se
    "heavy-se": lambda rng, n: (rng.normal(0, 1, n), np.exp(rng.normal(-1, 1.5, n))),
}


def write_table(path: Path, rows: int, shape: str) -> None:
    """A CSV of `rows` estimates of `shape`, ids p0000000... (seed 1)."""
    estimates, errors = SHAPES[shape](np.random.default_rng(1), rows)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["id", "estimate", "se"])
        writer.writerows(zip((f"p{i:07d}" for i in range(rows)), estimates.tolist(), errors.tolist(),
                             strict=True))


def command_rows(sizes: str, shapes: str, runs: int) -> list[str]:
    """The whole command, per size and shape: medians of `runs` fresh processes."""
    rows = ["| rows | shape | path | wall s | CPU s | peak RSS MB | load before / after |",
            "|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory(prefix="bench-rank-sets-command-") as folder:
        for size in (int(text) for text in sizes.split(",")):
            for shape in shapes.split(","):
                table, out = Path(folder) / f"{shape}-{size}.csv", Path(folder) / "out.csv"
                write_table(table, size, shape)
                before = os.getloadavg()[0]
                results = [measure([PAPERRANK, "rank-sets", str(table), "--id", "id", "--estimate",
                                    "estimate", "--se", "se", "--tau", str(min(30, size)),
                                    "--out", str(out)], cwd=REPO) for _ in range(runs)]
                answered = sum(1 for _ in out.open(encoding="utf-8")) - 1
                if answered != size:
                    raise SystemExit(f"{shape} {size}: {answered} rows answered")
                wall, cpu, peak = (statistics.median(values) for values in
                                   zip(*((r.wall_s, r.cpu_s, r.peak_rss_mb) for r in results), strict=True))
                rows.append(f"| {size:,} | {shape} | {choose_path(size, 1000, rank_set_settings())} | {wall:.2f} | "
                            f"{cpu:.2f} | {peak:.0f} | {before:.1f} / {os.getloadavg()[0]:.1f} |")
                table.unlink()
    return rows


def dbt_run(db: Path, scratch: Path, select: str, vars_json: str) -> tuple[float, float, float]:
    """(wall s, SQL s, peak RSS MB) of one `dbt run --select select` on `db`."""
    logs = scratch / "logs"
    shutil.rmtree(logs, ignore_errors=True)
    env = dict(os.environ, PAPERRANK_DB=str(db), DBT_PROFILES_DIR=str(REPO))
    done = measure([DBT, "run", "--select", select, "--vars", vars_json, "--target-path",
                    str(scratch / "target"), "--log-path", str(logs), "--log-level-file", "debug"],
                   cwd=REPO, env=env)
    results = json.loads((scratch / "target" / "run_results.json").read_text(encoding="utf-8"))
    if not results["results"]:  # a renamed model selects nothing, and times dbt's start-up
        raise SystemExit(f"dbt run --select {select} ran no model: {done.stdout[-500:]}")
    return done.wall_s, sql_seconds(logs), done.peak_rss_mb


def warehouse_rows(db: Path, vars_json: str, runs: int) -> list[str]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-rank-sets-") as folder:
        scratch = Path(folder)
        copy = scratch / "warehouse.duckdb"
        shutil.copy(db, copy)
        for label, select in (("rank sets (every rank-set model)", RANK_SETS),
                              ("review bootstrap (yardstick)", "int_bootstrap_paper_ranks")):
            before = os.getloadavg()[0]
            results = [dbt_run(copy, scratch, select, vars_json) for _ in range(runs)]
            wall, sql, peak = (statistics.median(values) for values in zip(*results, strict=False))
            rows.append(f"| {label} | {wall:.1f} | {sql:.1f} | {peak:.0f} | "
                        f"{before:.1f} / {os.getloadavg()[0]:.1f} |")
    return ["| models | wall s | SQL s | peak RSS MB | load before / after |",
            "|---|---|---|---|---|", *rows]


def scale_rows(names: str, runs: int, work: Path) -> list[str]:
    """The rank-set models on synthetic venues of the bench's shapes (1M papers: scaled path)."""
    rows = ["| scale | papers ranked (categories) | paths: exact / scaled categories | wall s | "
            "SQL s | slowest model (s) | peak RSS MB | load before / after |",
            "|---|---|---|---|---|---|---|---|"]
    for name in names.split(","):
        papers, shape = ranking.SCALES[name]
        scale = ranking.Scale(name, papers, work, shape)
        ranking.prepare(scale)
        command, target, _ = ranking.dbt(scale, 0, "rank-sets-setup", "build", "--select",
                                         f"+{RANK_SETS}", "--exclude", RANK_SETS,
                                         "--exclude-resource-type", "test", "unit_test")
        measure(command, cwd=REPO, env=scale.env)
        before = os.getloadavg()[0]
        results = []
        for run in range(1, runs + 1):
            command, target, logs = ranking.dbt(scale, run, "rank-sets", "run", "--select",
                                                RANK_SETS, "--log-level-file", "debug")
            done = measure(command, cwd=REPO, env=dict(scale.env, PAPERRANK_DBT_THREADS="1"))
            models = json.loads((target / "run_results.json").read_text(encoding="utf-8"))
            slowest = max(models["results"], key=lambda r: r["execution_time"])
            results.append((done.wall_s, sql_seconds(logs, workers_only=True), done.peak_rss_mb,
                            slowest["unique_id"].split(".")[-1], slowest["execution_time"]))
        wall, sql, peak = (statistics.median(r[i] for r in results) for i in range(3))
        slowest_name, slowest_s = max(((r[3], r[4]) for r in results), key=lambda r: r[1])
        ranked = ranking.count(scale.db, "select count(*) from marts.paper_rankings")
        categories = ranking.count(scale.db, "select count(*) from intermediate.int_rank_set_categories")
        exact = ranking.count(scale.db, "select count(*) from intermediate.int_rank_set_categories "
                                        "where rank_set_method = 'exact'")
        rows.append(f"| {name} | {ranked:,} ({categories}) | {exact} / {categories - exact} | "
                    f"{wall:.1f} | {sql:.1f} | {slowest_name} ({slowest_s:.1f}) | {peak:.0f} | "
                    f"{before:.1f} / {os.getloadavg()[0]:.1f} |")
        scale.db.unlink(missing_ok=True)
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="a built warehouse (copied, never written)")
    parser.add_argument("--vars", default=None,
                        help="dbt vars of that build (default: those its marts.build_settings "
                             "records)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--command", default="", help="table sizes for the whole command, e.g. 15,10000")
    parser.add_argument("--shapes", default=",".join(SHAPES), help="data shapes of --command")
    parser.add_argument("--scales", default="",
                        help="bench scales (e.g. 1m-short,1m-many): the rank-set models in dbt")
    parser.add_argument("--work", type=Path, default=Path("output/bench/rank-sets"),
                        help="scratch folder of --scales (warehouses are removed after each)")
    args = parser.parse_args(argv)
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    if args.db:
        try:
            dbt_vars = args.vars if args.vars is not None else recorded_vars(args.db)
        except ValueError as error:
            parser.error(str(error))
        print(f"vars: {dbt_vars}")
        print("\n".join(warehouse_rows(args.db, dbt_vars, args.runs)))
    if args.command:
        print("\n".join(command_rows(args.command, args.shapes, args.runs)))
    if args.scales:
        args.work.mkdir(parents=True, exist_ok=True)
        print("\n".join(scale_rows(args.scales, args.runs, args.work.resolve())))


if __name__ == "__main__":
    main()
