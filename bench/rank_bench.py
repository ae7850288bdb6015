"""`python -m bench.rank_bench` (`make bench-rank`): `make rank` against `dbt build` alone.

On the real ICLR 2026 data (loaded by the project's loaders into a scratch warehouse), each
run measures, in fresh processes:

- build: `dbt build` with the ranking's vars (every model, seed, data and unit test), what
  `make build` runs;
- rank: `paperrank rank`, what `make rank` runs: raw checks, the same dbt build,
  mart checks, the marts-agree check, publish, export, in one process.

It prints the medians, the ratio (the target: rank within 2x of build) and where the
rank's time goes, from the step times it prints (the project parse is inside the dbt build
step); the rest is Python's and dbt's start-up and reading the raw tables.  Timing lives here,
never in a test.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
from pathlib import Path

from bench.measure import measure
from paperrank.pipeline.settings import Settings

REPO = Path(__file__).resolve().parents[1]
STEP = re.compile(r"\[\d+/\d+\] (.+?) \.\.\. ok \(([0-9.]+) s\)")
VARS = Settings(taxonomy="iclr2026").dbt_vars()  # what make rank TAXONOMY=iclr2026 passes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.rank_bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", type=Path, default=Path("output/bench/rank"))
    args = parser.parse_args(argv)
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    db = work / "iclr2026.duckdb"
    env = dict(os.environ, PAPERRANK_DB=str(db), PAPERRANK_PUBLISHED_DB=str(work / "published.duckdb"),
               DBT_PROFILES_DIR=str(REPO), DBT_TARGET_PATH=str(work / "target"),
               DBT_LOG_PATH=str(work / "logs"))
    db.unlink(missing_ok=True)
    measure([sys.executable, "-m", "bench.raw_layer", "--db", str(db)], cwd=REPO, env=env)
    dbt = str(Path(sys.executable).parent / "dbt")
    builds: list[float] = []
    ranks: list[float] = []
    steps: dict[str, list[float]] = {}
    for run in range(args.runs):
        builds.append(measure([dbt, "build", "--vars", VARS, "--no-use-colors"], cwd=REPO, env=env).wall_s)
        result = measure([sys.executable, "-m", "paperrank", "rank", "--taxonomy", "iclr2026",
                          "--export-dir", str(work / "exports"), "--log", str(work / "rank.log")],
                         cwd=REPO, env=env)
        ranks.append(result.wall_s)
        for name, seconds in STEP.findall(result.stdout):
            steps.setdefault(name, []).append(float(seconds))
        print(f"run {run + 1}: dbt build {builds[-1]:.2f} s, make rank {ranks[-1]:.2f} s", flush=True)
    build, rank = statistics.median(builds), statistics.median(ranks)
    print(f"\nmedians of {args.runs} runs on the real ICLR 2026 data:")
    print(f"  dbt build alone        {build:6.2f} s")
    print(f"  make rank (pipeline)   {rank:6.2f} s   = {rank / build:.2f}x the build")
    accounted = 0.0
    for name, values in steps.items():
        seconds = statistics.median(values)
        accounted += seconds
        print(f"    {name:<20} {seconds:6.2f} s")
    print(f"    {'start-up, imports':<20} {rank - accounted:6.2f} s  (Python, dbt, reading the raw tables)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
