"""Seconds and peak memory of the outcome models (empirical Bayes, posterior draws, validity)
on a working warehouse that `make rank` has built (PAPERRANK_DB: the published copy holds no raw
layer), `python -m bench.outcomes --db PATH [--vars JSON]`,
or on a synthetic venue of all its submissions, `python -m bench.outcomes --synthetic 1000000`
(bench/raw_layer.py's `outcomes` shape; its ranking is built first, untimed).

The warehouse is copied first (the benchmark never writes the one it is given), then the outcome
models alone are run with dbt, `--runs` times. Two totals: the models' seconds as dbt times its
nodes (run_results.json: each node's SQL and dbt's own work on it) and their SQL seconds
(DuckDB's time in the statements of dbt's worker threads, from dbt's log: the models' SQL,
without the on-run-start hooks). The peak RSS of the whole dbt process comes from
bench.measure. The 1-minute
load average is printed beside them: on a shared machine it says how far to trust the seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from bench.build_vars import recorded_vars
from bench.measure import measure, sql_seconds
from bench.raw_layer import write_synthetic

REPO = Path(__file__).resolve().parents[1]
# the outcome models: every model of the extra `outcomes` (dbt_project.yml tags its folders), so
# that a model added to the family is timed with it
FAMILY = "tag:outcomes"


def build_upstream(db: Path, work: Path, dbt_vars: str) -> None:
    """What the outcome models read (the ranking and its inputs), untimed."""
    env = dict(os.environ, PAPERRANK_DB=str(db), DBT_PROFILES_DIR=str(REPO))
    measure([str(Path(sys.executable).parent / "dbt"), "build", "-s", f"+{FAMILY}",
             "--exclude", FAMILY, "resource_type:test", "resource_type:unit_test",
             "--vars", dbt_vars, "--target-path", str(work / "target"),
             "--log-path", str(work / "logs")], cwd=REPO, env=env)


def run_once(db: Path, work: Path, dbt_vars: str) -> tuple[dict[str, float], float, float, float]:
    """Each model's node seconds, the models' SQL seconds, peak RSS (MB) and wall seconds."""
    env = dict(os.environ, PAPERRANK_DB=str(db), DBT_PROFILES_DIR=str(REPO))
    target, logs = work / "target", work / "logs"
    shutil.rmtree(logs, ignore_errors=True)
    result = measure([str(Path(sys.executable).parent / "dbt"), "run", "-s", FAMILY,
                      "--vars", dbt_vars, "--target-path", str(target),
                      "--log-path", str(logs)], cwd=REPO, env=env)
    results = json.loads((target / "run_results.json").read_text())["results"]
    seconds = {r["unique_id"].split(".")[-1]: r["execution_time"] for r in results
               if r["unique_id"].startswith("model.")}  # not the on-run-start hooks
    sql = sql_seconds(logs, workers_only=True)
    return seconds, sql, result.peak_rss_mb, result.wall_s


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--db", type=Path, help="a warehouse built by make rank")
    source.add_argument("--synthetic", type=int, metavar="PAPERS",
                        help="a synthetic venue of this many submissions (shape outcomes)")
    parser.add_argument("--vars", default=None,
                        help="dbt vars of that build, as JSON (default: with --db, the vars its "
                             "marts.build_settings records; with --synthetic, the project's)")
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args(argv)
    if args.vars is None:
        try:
            args.vars = recorded_vars(args.db) if args.db is not None else "{}"
        except ValueError as error:
            parser.error(str(error))
    print(f"vars: {args.vars}")
    with tempfile.TemporaryDirectory(prefix="bench_outcomes_") as folder:
        work = Path(folder)
        db = work / "warehouse.duckdb"
        if args.synthetic is not None:
            papers, reviews = write_synthetic(db, args.synthetic, shape="outcomes")
            print(f"synthetic venue: {papers:,} submissions, {reviews:,} reviews")
            build_upstream(db, work, args.vars)
        else:
            shutil.copy(args.db, db)
        for run in range(1, args.runs + 1):
            seconds, sql, peak, wall = run_once(db, work, args.vars)
            load = os.getloadavg()[0]
            total = sum(seconds.values())
            print(f"run {run}: the outcome models take {total:.2f} s as dbt times its nodes, "
                  f"{sql:.2f} s of SQL; dbt wall {wall:.1f} s, peak RSS {peak:.0f} MB, "
                  f"load average {load:.1f}")
            for name, node_seconds in sorted(seconds.items(), key=lambda item: -item[1]):
                print(f"  {node_seconds:7.2f} s  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
