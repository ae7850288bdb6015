"""`python -m bench.uncertainty` (part of `make bench`): the rank-uncertainty and
weight-sensitivity models, timed at several scales.

For each scale a fresh warehouse is filled (the real ICLR 2026 data through the project's
loaders, or a synthetic venue; bench/raw_layer.py) and the ranking is built once, untimed.
Then each run measures, in a fresh process:

- uncertainty: `dbt run` of the rank-uncertainty models (bootstrap table, closed-form views,
  paper_rank_uncertainty, category_rank_stability) with the scale's method;
- weights: `dbt run` of the weight-sensitivity models (leave-one-out and Dirichlet rankings).

It reports wall time, the seconds DuckDB spent in dbt's statements (from dbt's log), peak RSS,
the method `auto` chose and the rows behind it. Medians over the runs. Everything is written
under a scratch folder; the repo's warehouse and target/ are never touched.

    python -m bench.uncertainty [--scales real,100k,1m] [--runs 3] [--out output/bench/uncertainty.csv]
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

import duckdb

from bench.measure import measure, sql_seconds

REPO = Path(__file__).resolve().parents[1]
DBT = str(Path(sys.executable).parent / "dbt")


@dataclass(frozen=True)
class Scale:
    """A data shape and the uncertainty settings it is measured with."""

    name: str
    papers: int | None  # None: the real ICLR 2026 data
    method: str
    replicates: int = 1000

    @property
    def taxonomy(self) -> str:
        return "iclr2026" if self.papers is None else "icml2026"

    @property
    def vars(self) -> str:
        return (f"{{taxonomy: {self.taxonomy}, rank_uncertainty_method: {self.method}, "
                f"rank_uncertainty_replicates: {self.replicates}}}")


SCALES = {
    "real": Scale("real", None, "bootstrap"),
    "real-auto": Scale("real-auto", None, "auto"),
    "100k": Scale("100k", 100_000, "auto"),
    "1m": Scale("1m", 1_000_000, "auto"),
}
UNCERTAINTY_MODELS = ["int_ranked_papers_numbered", "int_bootstrap_review_draws",
                      "int_bootstrap_paper_ranks", "int_normal_composite_errors",
                      "int_normal_top_n_cutoffs", "int_normal_paper_ranks", "paper_rank_uncertainty",
                      "category_rank_stability"]
WEIGHT_MODELS = ["int_weight_draws", "int_weight_scenarios", "int_weight_scenario_ranks",
                 "category_weight_sensitivity", "paper_weight_sensitivity"]
COLUMNS = ["scale", "papers", "ranked", "ranked_reviews", "method", "replicates", "runs",
           "uncertainty_s", "uncertainty_sql_s", "uncertainty_rss_mb",
           "weights_s", "weights_sql_s", "weights_rss_mb"]


def env_for(db: Path) -> dict[str, str]:
    return dict(os.environ, PAPERRANK_DB=str(db), DBT_PROFILES_DIR=str(REPO))


def dbt_command(scale: Scale, work: Path, label: str, *args: str) -> tuple[list[str], Path]:
    logs = work / "dbt" / scale.name / f"logs-{label}"
    shutil.rmtree(logs, ignore_errors=True)
    target = work / "dbt" / scale.name / "target"
    return [DBT, *args, "--vars", scale.vars, "--target-path", str(target),
            "--log-path", str(logs)], logs



def query(db: Path, sql: str) -> tuple:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()[0]
    finally:
        con.close()


def prepare(scale: Scale, work: Path) -> Path:
    """A fresh raw layer and the ranking (untimed)."""
    db = work / f"{scale.name}.duckdb"
    if db.exists():
        db.unlink()
    command = [sys.executable, "-m", "bench.raw_layer", "--db", str(db)]
    if scale.papers is not None:
        command += ["--papers", str(scale.papers)]
    measure(command, cwd=REPO, env=env_for(db))
    command, _ = dbt_command(scale, work, "prepare", "build", "--select", "+paper_rankings",
                             "--exclude", "resource_type:test", "resource_type:unit_test")
    measure(command, cwd=REPO, env=env_for(db))
    return db


def timed_run(scale: Scale, work: Path, db: Path, label: str, models: list[str]) -> tuple[float, ...]:
    command, logs = dbt_command(scale, work, label, "run", "--select", *models)
    result = measure(command, cwd=REPO, env=env_for(db))
    return result.wall_s, sql_seconds(logs), result.peak_rss_mb


def bench_scale(scale: Scale, runs: int, work: Path, log=print) -> dict[str, object]:
    log(f"[{scale.name}] preparing the raw layer and the ranking")
    db = prepare(scale, work)
    timings: dict[str, list[float]] = {}
    for run in range(1, runs + 1):
        for label, models in (("uncertainty", UNCERTAINTY_MODELS), ("weights", WEIGHT_MODELS)):
            wall, sql, rss = timed_run(scale, work, db, f"{label}-{run}", models)
            for key, value in ((f"{label}_s", wall), (f"{label}_sql_s", sql),
                               (f"{label}_rss_mb", rss)):
                timings.setdefault(key, []).append(value)
            log(f"[{scale.name}] run {run} {label}: {wall:.2f} s wall, {sql:.2f} s SQL, "
                f"{rss:.0f} MB")
    papers, ranked, reviews = query(db, """
        select
            (select count(*) from raw.papers),
            (select count(*) from marts.paper_rankings),
            (select count(*) from raw.reviews
             where paper_id in (select paper_id from marts.paper_rankings))""")
    method, replicates = query(db, "select any_value(uncertainty_method), any_value(replicates) "
                                   "from marts.paper_rank_uncertainty")
    row: dict[str, object] = {"scale": scale.name, "papers": papers, "ranked": ranked,
                              "ranked_reviews": reviews, "method": method,
                              "replicates": replicates or "", "runs": runs}
    row.update({key: round(statistics.median(values), 2) for key, values in timings.items()})
    db.unlink()
    return row


def render(rows: list[dict[str, object]]) -> str:
    lines = ["| scale | papers | ranked | reviews of ranked | method (B) | uncertainty s (SQL s) "
             "| peak RSS MB | weights s (SQL s) | peak RSS MB |", "|" + "---|" * 9]
    for r in rows:
        b = f" (B={r['replicates']})" if r["replicates"] else ""
        lines.append(
            f"| {r['scale']} | {r['papers']:,} | {r['ranked']:,} | {r['ranked_reviews']:,} "
            f"| {r['method']}{b} | {r['uncertainty_s']:.2f} ({r['uncertainty_sql_s']:.2f}) "
            f"| {r['uncertainty_rss_mb']:.0f} | {r['weights_s']:.2f} ({r['weights_sql_s']:.2f}) "
            f"| {r['weights_rss_mb']:.0f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.uncertainty", description=__doc__.split("\n\n")[0])
    parser.add_argument("--scales", default="real,1m",
                        help=f"comma-separated, of {', '.join(SCALES)} (default: real,1m)")
    parser.add_argument("--runs", type=int, default=3, help="runs per scale (default 3)")
    parser.add_argument("--out", type=Path, default=Path("output/bench/uncertainty.csv"))
    parser.add_argument("--work", type=Path, default=Path("output/bench/work-uncertainty"))
    args = parser.parse_args(argv)
    names = [s.strip().lower() for s in args.scales.split(",") if s.strip()]
    unknown = [s for s in names if s not in SCALES]
    if unknown or not names:
        parser.error(f"unknown scale(s) {unknown}; choose from {', '.join(SCALES)}")
    if args.runs < 1:
        parser.error("runs must be at least 1")
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    rows = [bench_scale(SCALES[name], args.runs, work) for name in names]
    table = render(rows)
    print(table)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
