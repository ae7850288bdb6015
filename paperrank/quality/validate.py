"""`python -m paperrank.quality validate --stage raw|marts|all`: the quality gate around `dbt build`.

The raw stage runs before dbt (ids, score scales, reviews per paper, primary areas), the marts
stage after it (finite scores, one contiguous rank per paper, category sizes).  The warehouse
is opened read-only and closed before any check runs, so dbt can start right after.  Exit 0
when every check passes (warnings included), 1 when one fails, 2 when the run cannot start.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from paperrank.core.warehouse import db_path
from paperrank.engines import ENGINES, marts_location
from paperrank.quality.engine import SuiteOutcome, run_suites
from paperrank.quality.frames import read_stage
from paperrank.quality.references import ranked_categories, venue_scales
from paperrank.quality.report import findings, render
from paperrank.quality.suites import TableSuite, mart_suites, raw_suites
from paperrank.quality.summary_page import write_summary

DEFAULT_DOCS = Path("output") / "quality" / "data_docs"
STAGES = {"raw": ["raw"], "marts": ["marts"], "all": ["raw", "marts"]}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stage", choices=sorted(STAGES), required=True,
                        help="raw (before dbt build), marts (after it) or all")
    parser.add_argument("--taxonomy",
                        help="taxonomy the labels and marts use (checks labels and categories)")
    parser.add_argument("--top-n", type=int, default=30,
                        help="papers each ranked category should have (smaller: warning)")
    parser.add_argument("--profile",
                        help="review-form profile for every venue (default: resolved per venue)")
    parser.add_argument("--engine", choices=ENGINES, default="duckdb",
                        help="engine whose marts the marts stage checks (default duckdb)")
    parser.add_argument("--docs-dir", type=Path, default=DEFAULT_DOCS,
                        help=f"GX Data Docs folder, one site per stage (default {DEFAULT_DOCS})")


def run(args: argparse.Namespace, frames: dict[str, pd.DataFrame] | None = None) -> int:
    """Check the stage(s); `frames` are the stage's tables when the caller has read them
    already (the pipeline reads the raw tables before dbt takes the file, checks them beside it)."""
    db = db_path()
    ranked = ranked_categories(args.taxonomy) if args.taxonomy else None
    failed = False
    for stage in STAGES[args.stage]:
        suites = build_suites(stage, db, args, ranked, frames)
        # one Data Docs site per stage: each run's index lists only that run's results
        docs = args.docs_dir / stage
        outcomes = run_suites(suites, docs)
        notes = [note for suite in suites for note in suite.warnings]
        source = db if stage == "raw" else marts_location(args.engine, db)
        summary = write_summary(docs / "summary.html", stage, source, outcomes, notes)
        print(render(stage, source, outcomes, notes, docs / "index.html", summary))
        failed |= _failed(outcomes)
    return 1 if failed else 0


def build_suites(stage: str, db: Path, args: argparse.Namespace, ranked: list[str] | None,
                 frames: dict[str, pd.DataFrame] | None = None) -> list[TableSuite]:
    """Read the stage's tables unless given (the file is closed on return); build its suites."""
    if frames is None:
        frames = read_stage(stage, db, args.taxonomy, args.engine)
    if stage == "raw":
        venues = sorted(frames["papers"]["venue"].dropna().unique())
        return raw_suites(frames, venue_scales(venues, args.profile), args.taxonomy)
    return mart_suites(frames, ranked, args.taxonomy, args.top_n)


def _failed(outcomes: list[SuiteOutcome]) -> bool:
    return any(f.level == "FAILED" for f in findings(outcomes))
