"""`python -m bench.pipeline` (in `make bench`): what an operator waits for, command by command.

Each figure is a fresh process, as an operator runs it, timed from start to exit (wall) with
its CPU seconds (user + system of the process tree, which a busy machine inflates far less):

- `make rank` (`paperrank rank`) with every extra and with `--extras none`, on two data
  shapes: the real ICLR 2026 data (5,358 papers, 6 ranked categories) and the demo's
  synthetic venue (6,352 papers by default, the ICML-like taxonomy). The first run of a shape
  parses the project; the runs after it change a setting each time (TOP_N), which must not
  parse it again, so the medians are of those;
- dbt's start-up when only the settings change: a fresh process that imports dbt and gets the
  parsed project for new settings (`paperrank.pipeline.dbt.Dbt(...).manifest`), after a run
  with other settings;
- `make demo` after set-up (`paperrank demo`, its own warehouses);
- every kind of wrong setting (`paperrank rank` refused in one line, exit 2, dbt not started).

Targets (on a quiet 2-core machine): rank with every extra at most 20 s and
with none at most 8 s on ICLR 2026; the demo at most 90 s; start-up at most 3 s; each refusal
at most 3 s. Timing lives here, never in a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

from bench.measure import Measurement, measure

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"
STARTUP = ("import sys, time; started = time.perf_counter(); "
           "from paperrank.pipeline.dbt import Dbt; Dbt(sys.argv[1]).manifest; "
           "print(f'{time.perf_counter() - started:.3f}')")


def paperrank(*args: str) -> list[str]:
    return [sys.executable, "-m", "paperrank", *args]


class Shape:
    """One venue loaded into a working warehouse of its own, ranked in fresh processes."""

    def __init__(self, name: str, work: Path, taxonomy: str, profile: str) -> None:
        self.name, self.taxonomy, self.profile = name, taxonomy, profile
        self.folder = work / name
        self.folder.mkdir(parents=True, exist_ok=True)
        self.env = dict(os.environ, PAPERRANK_DB=str(self.folder / "warehouse.duckdb"),
                        PAPERRANK_PUBLISHED_DB=str(self.folder / "published.duckdb"),
                        DBT_PROFILES_DIR=str(REPO), DBT_TARGET_PATH=str(self.folder / "target"),
                        DBT_LOG_PATH=str(self.folder / "logs"))

    def run(self, *args: str) -> Measurement:
        return measure(paperrank(*args), cwd=REPO, env=self.env)

    def rank(self, top_n: int, extras: str) -> Measurement:
        return self.run("rank", "--taxonomy", self.taxonomy, "--profile", self.profile,
                        "--top-n", str(top_n), "--extras", extras,
                        "--export-dir", str(self.folder / "exports"),
                        "--report-dir", str(self.folder / "report"), "--log", str(self.folder / "rank.log"))


def load_iclr(shape: Shape) -> None:
    shape.run("ingest", "file", str(SHARED / "iclr2026" / "accepted_papers.parquet"), "--venue", "ICLR 2026")
    shape.run("classify", "import", str(SHARED / "iclr2026" / "peer_llm_labels.parquet"),
              "--taxonomy", "iclr2026")


def load_synthetic(shape: Shape, papers: int | None) -> None:
    venue, truth = shape.folder / "venue.parquet", shape.folder / "truth.parquet"
    size = ["--papers", str(papers)] if papers else []
    shape.run("ingest", "synthetic", "--out", str(venue), "--labels-out", str(truth),
              "--venue", "SYNTH 2026", *size)
    shape.run("ingest", "file", str(venue), "--venue", "SYNTH 2026", "--profile", "iclr2026")
    shape.run("classify", "run", "--taxonomy", "icml2026", "--backend", "keywords")


def line(label: str, runs: list[Measurement], target: float | None = None) -> str:
    wall = statistics.median(m.wall_s for m in runs)
    cpu = statistics.median(m.cpu_s for m in runs)
    goal = f"  (target {target:g} s: {'met' if wall <= target else 'NOT met'})" if target else ""
    return f"  {label:<46} {wall:7.2f} s wall  {cpu:7.2f} s CPU  [{len(runs)} run(s)]{goal}"


def refusals(shape: Shape) -> list[tuple[str, Measurement]]:
    """Every kind of wrong setting, each refused before dbt starts (exit 2)."""
    user_folder = shape.folder / "a-folder-of-the-users"
    user_folder.mkdir(exist_ok=True)
    (user_folder / "thesis.txt").write_text("mine\n", encoding="utf-8")
    cases = {
        "top_n not a number": ["--top-n", "3; drop table x"],
        "unknown taxonomy": ["--taxonomy", "nope"],
        "unknown weight set": ["--weight-set", "nope"],
        "a template in a setting": ["--venue", "{{ env_var('HOME') }}"],
        "unknown extra": ["--extras", "everything"],
        "unknown venue": ["--venue", "ICLR 1999"],
        "weight set the review form lacks": ["--weight-set", "article_2026", "--venue", "ICLR 2018"],
        "an export folder paperrank did not write": ["--export-dir", str(user_folder)],
        "bands the wrong way round": ["--rank-band-secure", "0.1", "--rank-band-outside", "0.9"],
    }
    found = []
    for label, options in cases.items():
        args = ["--taxonomy", shape.taxonomy, *options] if "--taxonomy" not in options else options
        command = paperrank("rank", *args)
        result = measure([sys.executable, "-c", "import subprocess, sys; "
                          "sys.exit(0 if subprocess.run(sys.argv[1:]).returncode == 2 else 1)",
                          *command], cwd=REPO, env=shape.env)
        found.append((label, result))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pipeline", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="warm runs per figure (default 3)")
    parser.add_argument("--work", type=Path, default=Path("output/bench/pipeline"))
    parser.add_argument("--demo-papers", type=int, default=None,
                        help="papers of the synthetic shape and the demo (default: the demo's 6,352)")
    args = parser.parse_args(argv)
    work = args.work.resolve()
    iclr = Shape("iclr2026", work, "iclr2026", "iclr2026")
    synthetic = Shape("synthetic", work, "icml2026", "iclr2026")
    for shape in (iclr, synthetic):
        (shape.folder / "warehouse.duckdb").unlink(missing_ok=True)
    load_iclr(iclr)
    load_synthetic(synthetic, args.demo_papers)
    print("make rank, fresh processes (the first parses; each later run changes TOP_N):", flush=True)
    for shape in (iclr, synthetic):
        cold = shape.rank(30, "all")
        warm = [shape.rank(29 - run, "all") for run in range(args.runs)]
        none = [shape.rank(20 - run, "none") for run in range(args.runs)]
        print(line(f"{shape.name}: first run, every extra (parses)", [cold]), flush=True)
        print(line(f"{shape.name}: every extra", warm, 20 if shape is iclr else None), flush=True)
        print(line(f"{shape.name}: EXTRAS=none", none, 8 if shape is iclr else None), flush=True)
    startups = []
    for run in range(args.runs):
        vars_json = f'{{"taxonomy": "iclr2026", "top_n": {11 + run}}}'
        startups.append(measure([sys.executable, "-c", STARTUP, vars_json], cwd=REPO, env=iclr.env))
    print(line("dbt start-up, settings changed (import + parse)", startups, 3), flush=True)
    demo = Shape("demo", work, "icml2026", "iclr2026")
    demo_runs = [measure(paperrank("demo", "--out", str(demo.folder / "out"),
                                   "--report-dir", str(demo.folder / "report"),
                                   *(["--papers", str(args.demo_papers)] if args.demo_papers else [])),
                         cwd=REPO, env=demo.env)]
    print(line("make demo (after set-up)", demo_runs, 90), flush=True)
    print("wrong settings, each refused before dbt starts (exit 2):", flush=True)
    iclr2018 = SHARED / "iclr2018" / "paperlists_iclr2018.json.gz"
    iclr.run("ingest", "file", str(iclr2018), "--venue", "ICLR 2018")  # a second venue, two scores
    for label, result in refusals(iclr):
        print(line(label, [result], 3), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
