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

import pandas as pd

from paperrank.core import config
from paperrank.core.errors import CheckFailed
from paperrank.core.warehouse import db_path
from paperrank.engines import marts_location
from paperrank.quality import DEFAULT_DOCS, STAGES
from paperrank.quality.engine import SuiteOutcome, run_suites
from paperrank.quality.frames import read_stage
from paperrank.quality.references import ranked_categories, venue_scales
from paperrank.quality.report import findings, render
from paperrank.quality.suites import TableSuite, mart_suites, raw_suites
from paperrank.quality.summary_page import write_summary


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


def validate(checks: Checks) -> None:
    """Run the stage's checks; raise QualityChecksFailed when one fails (the report is printed)."""
    if not check(checks):
        raise QualityChecksFailed(f"the {checks.stage} quality checks failed (report above)")


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
