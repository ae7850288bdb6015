"""`paperrank validate --stage raw|marts|all`: the quality gate around `dbt build`.

The raw stage runs before dbt (ids, score scales, reviews per paper, primary areas), the marts
stage after it (finite scores, one contiguous rank per paper, category sizes).  The warehouse
is opened read-only and closed before any check runs, so dbt can start right after.  Exit 0
when every check passes (warnings included), 1 when one fails, 2 when the run cannot start.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import click
import pandas as pd

from paperrank.core import config
from paperrank.core.errors import CheckFailed
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


class QualityChecksFailed(CheckFailed):
    """A great-expectations suite failed (the report above names the expectation and rows)."""


@dataclass(frozen=True)
class Checks:
    """What the suites check against: the stage, and the settings the marts were built with."""

    stage: str
    taxonomy: str | None = None
    top_n: int = config.DEFAULT_TOP_N
    profile: str | None = None
    engine: str = config.DEFAULT_ENGINE
    docs_dir: Path = DEFAULT_DOCS


@click.command("validate", help=__doc__)
@click.option("--stage", type=click.Choice(sorted(STAGES)), required=True,
              help="raw (before dbt build), marts (after it) or all")
@click.option("--taxonomy", default=config.DEFAULT_TAXONOMY,
              help="taxonomy the labels and marts use (checks labels and categories; "
                   f"default {config.DEFAULT_TAXONOMY})")
@click.option("--top-n", type=int, default=config.DEFAULT_TOP_N,
              help=f"papers each ranked category should have (smaller: warning; default {config.DEFAULT_TOP_N})")
@click.option("--profile", help="review-form profile for every venue (default: resolved per venue)")
@click.option("--engine", type=click.Choice(ENGINES), default=config.DEFAULT_ENGINE,
              help=f"engine whose marts the marts stage checks (default {config.DEFAULT_ENGINE})")
@click.option("--docs-dir", type=click.Path(path_type=Path), default=DEFAULT_DOCS,
              help=f"GX Data Docs folder, one site per stage (default {DEFAULT_DOCS})")
def command(stage: str, taxonomy: str | None, top_n: int, profile: str | None, engine: str,
            docs_dir: Path) -> None:
    if not check(Checks(stage, taxonomy, top_n, profile, engine, docs_dir)):
        raise QualityChecksFailed(f"the {stage} quality checks failed (report above)")


def check(checks: Checks, frames: dict[str, pd.DataFrame] | None = None,
          later: list[Callable[[], object]] | None = None) -> bool:
    """Check the stage(s), print each report; True when every check passed (warnings allowed).

    `frames` are the stage's tables when the caller has read them already (the pipeline reads
    the raw tables before dbt takes the file, checks them beside it). With `later`, the GX Data
    Docs sites are written by the calls it is given (`engine.run_suites`), after the verdict;
    the reports' own summary pages are written before it."""
    db = db_path()
    ranked = ranked_categories(checks.taxonomy) if checks.taxonomy else None
    failed = False
    for stage in STAGES[checks.stage]:
        suites = build_suites(stage, db, checks, ranked, frames)
        # one Data Docs site per stage: each run's index lists only that run's results
        docs = checks.docs_dir / stage
        outcomes = run_suites(suites, docs, later)
        notes = [note for suite in suites for note in suite.warnings]
        source = db if stage == "raw" else marts_location(checks.engine, db)
        summary = write_summary(docs / "summary.html", stage, source, outcomes, notes)
        print(render(stage, source, outcomes, notes, docs / "index.html", summary))
        failed |= _failed(outcomes)
    return not failed


def build_suites(stage: str, db: Path, checks: Checks, ranked: list[str] | None,
                 frames: dict[str, pd.DataFrame] | None = None) -> list[TableSuite]:
    """Read the stage's tables unless given (the file is closed on return); build its suites."""
    if frames is None:
        frames = read_stage(stage, db, checks.taxonomy, checks.engine)
    if stage == "raw":
        venues = sorted(frames["papers"]["venue"].dropna().unique())
        return raw_suites(frames, venue_scales(venues, checks.profile), checks.taxonomy)
    return mart_suites(frames, ranked, checks.taxonomy, checks.top_n)


def _failed(outcomes: list[SuiteOutcome]) -> bool:
    return any(f.level == "FAILED" for f in findings(outcomes))
