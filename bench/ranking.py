"""The ranking benchmark: the project's dbt pipeline against the one-statement limit and pandas.

For each scale a fresh warehouse file is filled (the real ICLR 2026 data through the project's
loaders, or a synthetic venue), then each run measures, every step in a fresh process:

- project: `dbt build --select +paper_rankings` (staging and intermediate views, the three
  seeds it reads, the paper_rankings table; no data or unit tests), then the export
  run-operation writing one CSV per category;
- limit: the same table from one hand-written DuckDB statement (bench/limit.py);
- pandas: the same rankings from a straightforward pandas script (bench/pandas_impl.py).

The three rankings are checked to agree on the first run. Reported values are medians over
the runs. Everything is written under a scratch folder; the repo's warehouse and target/ are
never touched.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import pandas as pd

from bench import check
from bench.measure import measure

REPO = Path(__file__).resolve().parents[1]
DBT = str(Path(sys.executable).parent / "dbt")
SCALES = {"real": None, "10k": 10_000, "100k": 100_000, "1m": 1_000_000}
SQL_STATUS = re.compile(r"SQL status: .* in ([0-9.]+) seconds")

COLUMNS = [
    "scale", "papers", "reviews", "ranked", "runs",
    "project_s", "project_dbt_elapsed_s", "project_sql_s", "export_s", "limit_s", "limit_sql_s",
    "pandas_s", "project_over_limit", "project_sql_over_limit_sql", "pandas_over_project",
    "project_rss_mb", "export_rss_mb", "limit_rss_mb", "pandas_rss_mb", "agree",
]


@dataclass
class Scale:
    name: str
    papers: int | None  # None: the real ICLR 2026 data
    work: Path

    @property
    def taxonomy(self) -> str:
        return "iclr2026" if self.papers is None else "icml2026"

    @property
    def db(self) -> Path:
        return self.work / f"{self.name}.duckdb"

    @property
    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["PAPERRANK_DB"] = str(self.db)
        # the export reads the published warehouse; here the scale's own file, read-only
        env["PAPERRANK_PUBLISHED_DB"] = str(self.db)
        env["DBT_PROFILES_DIR"] = str(REPO)
        return env


@dataclass
class Runs:
    values: dict[str, list[float]] = field(default_factory=dict)

    def add(self, key: str, value: float) -> None:
        self.values.setdefault(key, []).append(value)

    def median(self, key: str) -> float:
        return statistics.median(self.values[key])


def prepare(scale: Scale) -> None:
    if scale.db.exists():
        scale.db.unlink()
    command = [sys.executable, "-m", "bench.raw_layer", "--db", str(scale.db)]
    if scale.papers is not None:
        command += ["--papers", str(scale.papers)]
    measure(command, cwd=REPO, env=scale.env)


def count(db: Path, sql: str) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return int(con.execute(sql).fetchall()[0][0])
    finally:
        con.close()


def dbt(scale: Scale, run: int, label: str, *args: str) -> tuple[list[str], Path, Path]:
    """A dbt command bound to the scale's warehouse and a fresh log folder per run and step
    (the target folder is shared, so dbt's partial parsing works as in daily use)."""
    target = scale.work / "dbt" / scale.name / "target"
    logs = scale.work / "dbt" / scale.name / f"logs-{run}-{label}"
    shutil.rmtree(logs, ignore_errors=True)
    vars_ = f"{{taxonomy: {scale.taxonomy}}}"
    command = [DBT, *args, "--vars", vars_, "--target-path", str(target), "--log-path", str(logs)]
    return command, target, logs


def sql_seconds(logs: Path) -> float:
    """Seconds DuckDB spent in the statements dbt sent, from dbt's debug log."""
    text = (logs / "dbt.log").read_text(encoding="utf-8", errors="replace")
    return sum(float(m) for m in SQL_STATUS.findall(text))


def project_build(scale: Scale, run: int, runs: Runs) -> None:
    command, target, logs = dbt(scale, run, "build", "build", "--select", "+paper_rankings",
                                "--exclude", "resource_type:test", "resource_type:unit_test")
    result = measure(command, cwd=REPO, env=scale.env)
    results = json.loads((target / "run_results.json").read_text(encoding="utf-8"))
    runs.add("project_s", result.wall_s)
    runs.add("project_rss_mb", result.peak_rss_mb)
    runs.add("project_dbt_elapsed_s", results["elapsed_time"])
    runs.add("project_nodes_s", sum(r["execution_time"] for r in results["results"]))
    runs.add("project_sql_s", sql_seconds(logs))
    paper_rankings = [r for r in results["results"] if r["unique_id"].endswith(".paper_rankings")]
    runs.add("paper_rankings_node_s", paper_rankings[0]["execution_time"])


def project_startup(scale: Scale, run: int, runs: Runs) -> None:
    """dbt's fixed cost: a run that selects nothing (start-up, parse, manifest, no SQL)."""
    command, _, _ = dbt(scale, run, "noop", "run", "--select", "tag:bench_selects_nothing")
    runs.add("dbt_noop_s", measure(command, cwd=REPO, env=scale.env).wall_s)


def project_build_with_tests(scale: Scale, run: int, runs: Runs) -> None:
    """The same build with its data and unit tests, for the record."""
    command, _, logs = dbt(scale, run, "build-tests", "build", "--select", "+paper_rankings")
    result = measure(command, cwd=REPO, env=scale.env)
    runs.add("project_with_tests_s", result.wall_s)
    runs.add("project_with_tests_sql_s", sql_seconds(logs))


def project_export(scale: Scale, run: int, runs: Runs) -> None:
    out = scale.work / "exports" / scale.name
    shutil.rmtree(out, ignore_errors=True)
    command, _, logs = dbt(scale, run, "export", "run-operation", "export_category_csvs",
                           "--target", "published", "--args", f"{{out_dir: '{out}'}}")
    result = measure(command, cwd=REPO, env=scale.env)
    runs.add("export_s", result.wall_s)
    runs.add("export_rss_mb", result.peak_rss_mb)
    runs.add("export_sql_s", sql_seconds(logs))


def limit(scale: Scale, runs: Runs) -> None:
    command = [sys.executable, "-m", "bench.limit", "--db", str(scale.db),
               "--taxonomy", scale.taxonomy]
    result = measure(command, cwd=REPO, env=scale.env)
    runs.add("limit_s", result.wall_s)
    runs.add("limit_rss_mb", result.peak_rss_mb)
    runs.add("limit_sql_s", json.loads(result.stdout.strip().splitlines()[-1])["sql_seconds"])


def pandas(scale: Scale, runs: Runs) -> Path:
    out = scale.work / "pandas" / f"{scale.name}.parquet"
    command = [sys.executable, "-m", "bench.pandas_impl", "--db", str(scale.db),
               "--taxonomy", scale.taxonomy, "--out", str(out)]
    result = measure(command, cwd=REPO, env=scale.env)
    runs.add("pandas_s", result.wall_s)
    runs.add("pandas_rss_mb", result.peak_rss_mb)
    return out


def agreement(scale: Scale, project: pd.DataFrame, pandas_out: Path) -> str:
    """'yes', 'yes (n near-ties)' or 'NO': the limit and pandas against the project."""
    others = {"limit": check.read_table(scale.db, "bench.limit_rankings"),
              "pandas": check.read_parquet(pandas_out)}
    problems, ties = [], 0
    for name, frame in others.items():
        problems += [f"{name}: {p}" for p in check.differences(project, frame)]
        ties += check.near_tie_swaps(project, frame)
    for problem in problems:
        print(f"  DISAGREE {scale.name} {problem}", flush=True)
    if problems:
        return "NO"
    return "yes" if not ties else f"yes ({ties} near-ties)"


def bench_scale(scale: Scale, n_runs: int, log=print) -> tuple[dict[str, object], Runs]:
    scale.work.mkdir(parents=True, exist_ok=True)
    log(f"[{scale.name}] preparing the raw layer in {scale.db}")
    prepare(scale)
    runs = Runs()
    agree = "?"
    first: pd.DataFrame | None = None
    log(f"[{scale.name}] load average before: {os.getloadavg()[0]:.2f}")
    for run in range(1, n_runs + 1):
        project_build(scale, run, runs)
        project_export(scale, run, runs)
        limit(scale, runs)
        pandas_out = pandas(scale, runs)
        if scale.papers is None:
            project_startup(scale, run, runs)
            project_build_with_tests(scale, run, runs)
        current = check.read_table(scale.db, "marts.paper_rankings")
        if run == 1:
            first = current
            agree = agreement(scale, current, pandas_out)
        elif first is not None:
            # the project against itself: parallel float sums can move 12th-digit ties
            problems = check.differences(first, current)
            ties = check.near_tie_swaps(first, current)
            if problems or ties:
                log(f"  [{scale.name}] run {run} vs run 1 of the project: {ties} near-tie "
                    f"swaps, {problems or 'no other difference'}")
        log(f"[{scale.name}] run {run}/{n_runs}: project {runs.values['project_s'][-1]:.2f}s "
            f"(SQL {runs.values['project_sql_s'][-1]:.2f}s), export "
            f"{runs.values['export_s'][-1]:.2f}s, limit {runs.values['limit_s'][-1]:.2f}s, "
            f"pandas {runs.values['pandas_s'][-1]:.2f}s; load {os.getloadavg()[0]:.2f}")
    m = runs.median
    row: dict[str, object] = {
        "scale": scale.name,
        "papers": count(scale.db, "select count(*) from raw.papers where is_accepted"),
        "reviews": count(scale.db, "select count(*) from raw.reviews"),
        "ranked": count(scale.db, "select count(*) from marts.paper_rankings"),
        "runs": n_runs,
        "agree": agree,
    }
    for key in ("project_s", "project_dbt_elapsed_s", "project_sql_s", "export_s", "limit_s",
                "limit_sql_s", "pandas_s", "project_rss_mb", "export_rss_mb", "limit_rss_mb",
                "pandas_rss_mb"):
        row[key] = round(m(key), 3 if key.endswith("_s") else 0)
    row["project_over_limit"] = round(m("project_s") / m("limit_s"), 2)
    row["project_sql_over_limit_sql"] = round(m("project_sql_s") / m("limit_sql_s"), 2)
    row["pandas_over_project"] = round(m("pandas_s") / m("project_s"), 2)
    return row, runs


def startup_split(runs: Runs) -> dict[str, float]:
    """Where the project's `dbt build` time goes (medians, seconds)."""
    wall = runs.median("project_s")
    elapsed = runs.median("project_dbt_elapsed_s")
    sql = runs.median("project_sql_s")
    return {
        "wall": wall,
        "startup": wall - elapsed,  # interpreter, imports, project parse, manifest, adapter
        "node_overhead": elapsed - sql,  # scheduling, compiling, materialization macros
        "sql": sql,  # DuckDB executing every statement dbt sent
        "paper_rankings_node": runs.median("paper_rankings_node_s"),
        **{key: runs.median(f"{key}_s") for key in ("dbt_noop", "project_with_tests",
                                                    "project_with_tests_sql", "export_sql")
           if f"{key}_s" in runs.values},
    }


def render(rows: list[dict[str, object]]) -> str:
    header = ("| scale | papers | reviews | ranked | project build s (SQL s) | export s "
              "| limit s (SQL s) | pandas s | project/limit (SQL) | pandas/project "
              "| peak RSS MB project / export / limit / pandas | agree |")
    lines = [header, "|" + "---|" * 12]
    for r in rows:
        lines.append(
            f"| {r['scale']} | {r['papers']:,} | {r['reviews']:,} | {r['ranked']:,} "
            f"| {r['project_s']:.2f} ({r['project_sql_s']:.2f}) | {r['export_s']:.2f} "
            f"| {r['limit_s']:.2f} ({r['limit_sql_s']:.2f}) | {r['pandas_s']:.2f} "
            f"| {r['project_over_limit']:.2f} ({r['project_sql_over_limit_sql']:.2f}) "
            f"| {r['pandas_over_project']:.2f} "
            f"| {r['project_rss_mb']:.0f} / {r['export_rss_mb']:.0f} / {r['limit_rss_mb']:.0f} "
            f"/ {r['pandas_rss_mb']:.0f} | {r['agree']} |")
    return "\n".join(lines)


def write_csv(rows: list[dict[str, object]], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)


def run(scales: list[str], n_runs: int, out: Path, work: Path, keep: bool = False,
        runs_1m: int | None = None) -> int:
    rows: list[dict[str, object]] = []
    splits: dict[str, dict[str, float]] = {}
    for name in scales:
        scale = Scale(name, SCALES[name], work)
        count_runs = runs_1m if (name == "1m" and runs_1m) else n_runs
        row, runs = bench_scale(scale, count_runs, log=lambda text: print(text, flush=True))
        rows.append(row)
        splits[name] = startup_split(runs)
        write_csv(rows, out)  # after every scale, so a long run leaves partial results
        if not keep:
            scale.db.unlink(missing_ok=True)
    print()
    print(render(rows))
    print()
    print("dbt build of the ranking models, where the time goes (medians, seconds):")
    for name, split in splits.items():
        print(f"  {name:>5}: wall {split['wall']:.2f} = start-up {split['startup']:.2f}"
              f" + node overhead {split['node_overhead']:.2f} + SQL {split['sql']:.2f}"
              f"  (paper_rankings node {split['paper_rankings_node']:.2f})")
        if "dbt_noop" in split:
            print(f"         a dbt run selecting nothing takes {split['dbt_noop']:.2f}; with its "
                  f"tests the build takes {split['project_with_tests']:.2f} (SQL "
                  f"{split['project_with_tests_sql']:.2f})")
        print(f"         export: SQL {split['export_sql']:.2f} of the run-operation's wall time")
    print(f"\nwrote {out}")
    return 0 if all(r["agree"] == "yes" for r in rows) else 1
