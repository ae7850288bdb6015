"""Seconds and peak memory of the outcome models (empirical Bayes, posterior draws, validity)
on a warehouse that `make rank` has built: `python -m bench.outcomes --db PATH [--vars JSON]`.

The warehouse is copied first (the benchmark never writes the one it is given), then the outcome
models alone are run with dbt, `--runs` times; each model's SQL seconds come from dbt's
run_results.json, and the peak RSS of the whole dbt process from bench.measure. The 1-minute
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

from bench.measure import measure

REPO = Path(__file__).resolve().parents[1]
MODELS = ("int_outcome_papers", "int_eb_priors_fitted", "int_eb_posteriors",
          "int_eb_posterior_draws", "paper_posterior_rankings", "empirical_bayes_priors",
          "int_validity_scores", "int_validity_groups", "int_validity_samples",
          "int_validity_reliability",
          "ranking_validity")


def run_once(db: Path, work: Path, dbt_vars: str) -> tuple[dict[str, float], float, float]:
    env = dict(os.environ, PAPERRANK_DB=str(db), DBT_PROFILES_DIR=str(REPO))
    target = work / "target"
    result = measure([str(Path(sys.executable).parent / "dbt"), "run", "-s", *MODELS,
                      "--vars", dbt_vars, "--target-path", str(target),
                      "--log-path", str(work / "logs")], cwd=REPO, env=env)
    results = json.loads((target / "run_results.json").read_text())["results"]
    seconds = {r["unique_id"].split(".")[-1]: r["execution_time"] for r in results}
    return seconds, result.peak_rss_mb, result.wall_s


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="a warehouse built by make rank")
    parser.add_argument("--vars", default="{}", help="dbt vars of that build, as JSON")
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench_outcomes_") as folder:
        work = Path(folder)
        db = work / "warehouse.duckdb"
        shutil.copy(args.db, db)
        for run in range(1, args.runs + 1):
            seconds, peak, wall = run_once(db, work, args.vars)
            load = os.getloadavg()[0]
            total = sum(seconds.values())
            print(f"run {run}: {total:.2f} s of SQL in the outcome models, dbt wall {wall:.1f} s, "
                  f"peak RSS {peak:.0f} MB, load average {load:.1f}")
            for name in MODELS:
                print(f"  {seconds.get(name, float('nan')):7.2f} s  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
