"""The ranking benchmark: the project's dbt pipeline against the one-statement limit and pandas.

For each scale a fresh warehouse file is filled (the real ICLR 2026 data through the project's
loaders, or a synthetic venue in one of four shapes, see bench.raw_layer.SHAPES; synthetic
venues also fill raw.review_history, so paper_score_history has a snapshot to read), then
each run measures, every step in a fresh process:

- project: `dbt build` of every model and seed, no data or unit tests, with one dbt thread so
  that each model's seconds in run_results.json are its own (DuckDB itself uses its threads),
  then the export run-operation writing one CSV per category;
- limit: the same table from one hand-written DuckDB statement (bench/limit.py), and its
  numbers alone (no text column), the floor for the arithmetic;
- pandas: the same rankings from a straightforward pandas script (bench/pandas_impl.py).

The three rankings are checked to agree on the first run. Reported values are medians over
the runs. Everything is written under a scratch folder; the repo's warehouse and target/ are
never touched. The `many` shape's taxonomy of 200 categories exists only in a scratch copy of
the dbt project (its seeds get the extra rows), never in the project's own seeds.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import statistics
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd

from bench import check
from bench.measure import measure, sql_seconds
from bench.raw_layer import MANY_TAXONOMY, many_categories

REPO = Path(__file__).resolve().parents[1]
DBT = str(Path(sys.executable).parent / "dbt")
# name -> (synthetic papers or None for the real ICLR 2026 data, shape)
SCALES = {
    "real": (None, "base"), "10k": (10_000, "base"), "100k": (100_000, "base"),
    "1m": (1_000_000, "base"), "100k-ranked": (100_000, "ranked"),
    "100k-many": (100_000, "many"), "1m-ranked": (1_000_000, "ranked"),
    "1m-many": (1_000_000, "many"), "100k-short": (100_000, "short"),
    "1m-short": (1_000_000, "short"),
}
# every model the build materializes is timed (from run_results.json: views cost nothing until a
# table reads them), the rank-set and outcome models included; the table lists those over 0.1 s
MODEL_PREFIX = "model_"
# what marts.paper_rankings needs: the shared table of categorized papers, the ranking
# (int_papers_ranked, a table the extras read too), then the mart (a view of it)
RANKING_PATH = ["int_papers_categorized", "int_papers_ranked", "paper_rankings"]

COLUMNS = [
    "scale", "shape", "papers", "reviews", "ranked", "categories", "runs",
    "project_s", "project_dbt_elapsed_s", "project_sql_s", "models_s", "ranking_path_s",
    "export_s", "limit_s", "limit_sql_s", "numbers_s", "numbers_sql_s", "pandas_s",
    "ranking_path_over_limit", "models_over_limit", "slowest_model", "slowest_model_over_limit",
    "ranking_path_over_numbers", "models_over_numbers", "slowest_model_over_numbers",
    "project_cpu_s", "dbt_noop_cpu_s", "limit_cpu_s", "numbers_cpu_s",
    "models_cpu_over_limit_cpu", "models_cpu_over_numbers_cpu", "pandas_over_project",
    "project_rss_mb", "export_rss_mb", "limit_rss_mb", "numbers_rss_mb", "pandas_rss_mb",
    "load_start", "load_end", "agree",
]  # then one `model_<name>_s` column per model the build materialized


@dataclass
class Scale:
    name: str
    papers: int | None  # None: the real ICLR 2026 data
    work: Path
    shape: str = "base"

    @property
    def taxonomy(self) -> str:
        if self.papers is None:
            return "iclr2026"
        return MANY_TAXONOMY if self.shape == "many" else "icml2026"

    @property
    def project_dir(self) -> Path:
        return scratch_project(self.work) if self.shape == "many" else REPO

    @property
    def seeds(self) -> Path:
        return self.project_dir / "seeds"

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


def scratch_project(work: Path, taxonomy: str = MANY_TAXONOMY,
                    categories: list[str] | None = None, refresh: bool = False,
                    source: Path = REPO) -> Path:
    """A copy of the dbt project in `source` whose taxonomy seed also holds a bench taxonomy:
    the `many` shape's by default, or `taxonomy` of the ranked `categories` (and Other).
    `refresh` copies the project again, so that the copy runs the models as they are now."""
    categories = many_categories() if categories is None else categories
    root = work / ("project-many" if taxonomy == MANY_TAXONOMY else f"project-{taxonomy}")
    if refresh or not (root / "dbt_project.yml").exists():
        shutil.rmtree(root, ignore_errors=True)
        for folder in ("models", "macros", "seeds", "tests/generic"):
            shutil.copytree(source / folder, root / folder)
        shutil.copy2(source / "dbt_project.yml", root / "dbt_project.yml")
        with (root / "seeds" / "taxonomies.csv").open("a", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            for order, category in enumerate([*categories, "Other"], start=1):
                slug = category.lower().replace(" ", "-")
                writer.writerow([taxonomy, category, slug, category != "Other", True, order,
                                 f"benchmark category {category}", "", ""])
    return root


def prepare(scale: Scale) -> None:
    if scale.db.exists():
        scale.db.unlink()
    command = [sys.executable, "-m", "bench.raw_layer", "--db", str(scale.db)]
    if scale.papers is not None:
        command += ["--papers", str(scale.papers), "--shape", scale.shape, "--history"]
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
    command = [DBT, *args, "--vars", vars_, "--target-path", str(target), "--log-path", str(logs),
               "--project-dir", str(scale.project_dir)]
    return command, target, logs



def project_build(scale: Scale, run: int, runs: Runs) -> None:
    command, target, logs = dbt(scale, run, "build", "build", "--exclude", "resource_type:test",
                                "resource_type:unit_test")
    result = measure(command, cwd=REPO, env=dict(scale.env, PAPERRANK_DBT_THREADS="1"))
    results = json.loads((target / "run_results.json").read_text(encoding="utf-8"))
    runs.add("project_s", result.wall_s)
    runs.add("project_cpu_s", result.cpu_s)
    runs.add("project_rss_mb", result.peak_rss_mb)
    runs.add("project_dbt_elapsed_s", results["elapsed_time"])
    runs.add("project_sql_s", sql_seconds(logs))
    seconds = {r["unique_id"]: r["execution_time"] for r in results["results"]}
    models = {uid.split(".")[-1]: t for uid, t in seconds.items() if uid.startswith("model.")}
    runs.add("models_s", sum(models.values()))
    for model, model_seconds in models.items():
        runs.add(f"{MODEL_PREFIX}{model}_s", model_seconds)
    runs.add("ranking_path_s", sum(models[m] for m in RANKING_PATH))


def project_startup(scale: Scale, run: int, runs: Runs) -> None:
    """dbt's fixed cost: a run that selects nothing (start-up, parse, manifest, no SQL)."""
    command, _, _ = dbt(scale, run, "noop", "run", "--select", "tag:bench_selects_nothing")
    result = measure(command, cwd=REPO, env=scale.env)
    runs.add("dbt_noop_s", result.wall_s)
    runs.add("dbt_noop_cpu_s", result.cpu_s)


def project_build_with_tests(scale: Scale, run: int, runs: Runs) -> None:
    """The same build with its data and unit tests, for the record."""
    command, _, logs = dbt(scale, run, "build-tests", "build")
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


def limit(scale: Scale, runs: Runs, numbers_only: bool = False) -> None:
    """The one-statement limit with every text column (`limit_*`), or its numbers alone
    (`numbers_*`)."""
    command = [sys.executable, "-m", "bench.limit", "--db", str(scale.db),
               "--taxonomy", scale.taxonomy, "--seeds", str(scale.seeds)]
    key = "numbers" if numbers_only else "limit"
    result = measure(command + (["--numbers-only"] if numbers_only else []), cwd=REPO,
                     env=scale.env)
    report = json.loads(result.stdout.strip().splitlines()[-1])
    runs.add(f"{key}_s", result.wall_s)
    runs.add(f"{key}_rss_mb", result.peak_rss_mb)
    runs.add(f"{key}_sql_s", report["sql_seconds"])
    runs.add(f"{key}_cpu_s", report["cpu_seconds"])


def pandas(scale: Scale, runs: Runs) -> Path:
    out = scale.work / "pandas" / f"{scale.name}.parquet"
    command = [sys.executable, "-m", "bench.pandas_impl", "--db", str(scale.db),
               "--taxonomy", scale.taxonomy, "--out", str(out), "--seeds", str(scale.seeds)]
    result = measure(command, cwd=REPO, env=scale.env)
    runs.add("pandas_s", result.wall_s)
    runs.add("pandas_rss_mb", result.peak_rss_mb)
    return out


def agreement(scale: Scale, project: pd.DataFrame, pandas_out: Path) -> str:
    """'yes', 'yes (n near-ties)' or 'NO': both limits and pandas against the project."""
    others = {"limit": check.read_table(scale.db, "bench.limit_rankings"),
              "limit, numbers only": check.read_table(scale.db, "bench.limit_numbers"),
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
    load_start = os.getloadavg()[0]
    log(f"[{scale.name}] load average before: {load_start:.2f}")
    for run in range(1, n_runs + 1):
        project_build(scale, run, runs)
        project_export(scale, run, runs)
        limit(scale, runs)
        limit(scale, runs, numbers_only=True)
        pandas_out = pandas(scale, runs)
        project_startup(scale, run, runs)
        if scale.papers is None:
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
            f"(models {runs.values['models_s'][-1]:.2f}s, ranking path "
            f"{runs.values['ranking_path_s'][-1]:.2f}s), export "
            f"{runs.values['export_s'][-1]:.2f}s, limit {runs.values['limit_s'][-1]:.2f}s "
            f"(numbers only {runs.values['numbers_s'][-1]:.2f}s), pandas "
            f"{runs.values['pandas_s'][-1]:.2f}s; load {os.getloadavg()[0]:.2f}")
    m = runs.median
    row: dict[str, object] = {
        "scale": scale.name,
        "shape": scale.shape,
        "papers": count(scale.db, "select count(*) from raw.papers where is_accepted"),
        "reviews": count(scale.db, "select count(*) from raw.reviews"),
        "ranked": count(scale.db, "select count(*) from marts.paper_rankings"),
        "categories": count(scale.db, "select count(*) from (select distinct venue, category "
                                      "from marts.paper_rankings)"),
        "runs": n_runs,
        "load_start": round(load_start, 2),
        "load_end": round(os.getloadavg()[0], 2),
        "agree": agree,
    }
    for key in ("project_s", "project_dbt_elapsed_s", "project_sql_s", "models_s",
                "ranking_path_s", "export_s", "limit_s", "limit_sql_s", "numbers_s",
                "numbers_sql_s", "pandas_s", "project_cpu_s", "dbt_noop_cpu_s", "limit_cpu_s",
                "numbers_cpu_s", "project_rss_mb", "export_rss_mb", "limit_rss_mb",
                "numbers_rss_mb", "pandas_rss_mb", *model_keys(runs.values)):
        row[key] = round(m(key), 3 if key.endswith("_s") else 0)
    slowest = max(model_keys(runs.values), key=m)
    row["slowest_model"] = slowest.removeprefix(MODEL_PREFIX).removesuffix("_s")
    # CPU seconds of the build's SQL: the dbt process tree minus a dbt run that does nothing
    build_cpu = m("project_cpu_s") - m("dbt_noop_cpu_s")
    for key in ("limit", "numbers"):
        row[f"ranking_path_over_{key}"] = round(m("ranking_path_s") / m(f"{key}_sql_s"), 2)
        row[f"models_over_{key}"] = round(m("models_s") / m(f"{key}_sql_s"), 2)
        row[f"slowest_model_over_{key}"] = round(m(slowest) / m(f"{key}_sql_s"), 2)
        row[f"models_cpu_over_{key}_cpu"] = round(build_cpu / m(f"{key}_cpu_s"), 2)
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
        **{key: runs.median(f"{key}_s") for key in ("dbt_noop", "project_with_tests",
                                                    "project_with_tests_sql", "export_sql")
           if f"{key}_s" in runs.values},
    }


def render(rows: list[dict[str, Any]]) -> str:
    """Two markdown tables: the build against the two limits (numbers only / with texts) and
    pandas, then each model's seconds and its multiples of the two limits."""
    header = ("| scale | papers | reviews | ranked (categories) | load avg start-end "
              "| build s (models s) | pandas s | build / pandas | limit SQL s: numbers / texts "
              "| ranking path s (x numbers / x texts) | slowest model x numbers / x texts "
              "| models x numbers / x texts | models CPU x numbers / x texts | export s "
              "| peak RSS MB build / export / limit / numbers / pandas | agree |")
    lines = [header, "|" + "---|" * 16]
    for r in rows:
        lines.append(
            f"| {r['scale']} | {r['papers']:,} | {r['reviews']:,} "
            f"| {r['ranked']:,} ({r['categories']}) | {r['load_start']:.1f}-{r['load_end']:.1f} "
            f"| {r['project_s']:.2f} ({r['models_s']:.2f}) | {r['pandas_s']:.2f} "
            f"| {r['project_s'] / r['pandas_s']:.2f} "
            f"| {r['numbers_sql_s']:.2f} / {r['limit_sql_s']:.2f} "
            f"| {r['ranking_path_s']:.2f} ({r['ranking_path_over_numbers']:.2f} / "
            f"{r['ranking_path_over_limit']:.2f}) "
            f"| {r['slowest_model']} {r['slowest_model_over_numbers']:.2f} / "
            f"{r['slowest_model_over_limit']:.2f} "
            f"| {r['models_over_numbers']:.2f} / {r['models_over_limit']:.2f} "
            f"| {r['models_cpu_over_numbers_cpu']:.2f} / {r['models_cpu_over_limit_cpu']:.2f} "
            f"| {r['export_s']:.2f} "
            f"| {r['project_rss_mb']:.0f} / {r['export_rss_mb']:.0f} / {r['limit_rss_mb']:.0f} "
            f"/ {r['numbers_rss_mb']:.0f} / {r['pandas_rss_mb']:.0f} | {r['agree']} |")
    lines += ["", "| model | " + " | ".join(f"{r['scale']} s (x numbers / x texts)"
                                           for r in rows) + " |",
              "|" + "---|" * (len(rows) + 1),
              "| *limit SQL, numbers / texts* | " + " | ".join(
                  f"{r['numbers_sql_s']:.2f} / {r['limit_sql_s']:.2f}" for r in rows) + " |"]
    keys = sorted({key for r in rows for key in model_keys(r)},
                  key=lambda key: -max(float(r.get(key, 0.0)) for r in rows))
    for key in keys:
        if max(float(r.get(key, 0.0)) for r in rows) < 0.1:
            continue
        model = key.removeprefix(MODEL_PREFIX).removesuffix("_s")
        lines.append(f"| {model} | " + " | ".join(
            f"{r[key]:.2f} ({r[key] / r['numbers_sql_s']:.2f} / "
            f"{r[key] / r['limit_sql_s']:.2f})" if key in r else "-" for r in rows) + " |")
    lines.append("| *ranking path* | " + " | ".join(
        f"{r['ranking_path_s']:.2f} ({r['ranking_path_over_numbers']:.2f} / "
        f"{r['ranking_path_over_limit']:.2f})" for r in rows) + " |")
    lines.append("| *every model* | " + " | ".join(
        f"{r['models_s']:.2f} ({r['models_over_numbers']:.2f} / {r['models_over_limit']:.2f})"
        for r in rows) + " |")
    return "\n".join(lines)


def model_keys(values: Mapping[str, object]) -> list[str]:
    """The per-model seconds among a scale's measurements (`model_<name>_s`)."""
    return [key for key in values if key.startswith(MODEL_PREFIX) and key.endswith("_s")]


def write_csv(rows: list[dict[str, object]], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        models = sorted({key for row in rows for key in model_keys(row)})
        writer = csv.DictWriter(handle, fieldnames=[*COLUMNS, *models])
        writer.writeheader()
        writer.writerows(rows)


def run(scales: list[str], n_runs: int, out: Path, work: Path, keep: bool = False,
        runs_1m: int | None = None) -> int:
    rows: list[dict[str, object]] = []
    splits: dict[str, dict[str, float]] = {}
    for name in scales:
        papers, shape = SCALES[name]
        scale = Scale(name, papers, work, shape)
        count_runs = runs_1m if (name.startswith("1m") and runs_1m) else n_runs
        row, runs = bench_scale(scale, count_runs, log=lambda text: print(text, flush=True))
        rows.append(row)
        splits[name] = startup_split(runs)
        write_csv(rows, out)  # after every scale, so a long run leaves partial results
        if not keep:
            scale.db.unlink(missing_ok=True)
    print()
    print(render(rows))
    print()
    print(f"load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print("dbt build of every model, where the time goes (medians, seconds):")
    for name, split in splits.items():
        print(f"  {name:>11}: wall {split['wall']:.2f} = start-up {split['startup']:.2f}"
              f" + node overhead {split['node_overhead']:.2f} + SQL {split['sql']:.2f};"
              f" a dbt run selecting nothing takes {split['dbt_noop']:.2f}")
        if "project_with_tests" in split:
            print(f"         with its tests the build takes {split['project_with_tests']:.2f} "
                  f"(SQL {split['project_with_tests_sql']:.2f})")
        print(f"         export: SQL {split['export_sql']:.2f} of the run-operation's wall time")
    print(f"\nwrote {out}")
    # near-tie swaps are the allowance bench.check describes, reported beside the "yes"
    return 0 if all(str(r["agree"]).startswith("yes") for r in rows) else 1
