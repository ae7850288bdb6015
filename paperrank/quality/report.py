"""Turn GX results into the short report an operator reads when `make validate` stops.

GX's own output is a large JSON document; this keeps what someone needs to act: which
expectation failed, on which table and column, how many rows, and a few of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from great_expectations.core.expectation_validation_result import (
    ExpectationValidationResult,
)
from great_expectations.expectations.metadata_types import FailureSeverity

from paperrank.quality.engine import SAMPLE_ROWS, SuiteOutcome
from paperrank.quality.suites import TableSuite

CHECKED_KWARGS = ("column", "column_A", "column_list")  # the column(s) a finding is about
COMPARED_KWARGS = ("column_B",)  # shown beside the sample rows, not named as the culprit


@dataclass
class Finding:
    """One unmet expectation: a failure, or a warning when its severity is `warning`."""

    level: str  # FAILED or WARNING
    table: str
    columns: list[str]
    suite: str
    expectation: str
    description: str
    detail: str
    rows: pd.DataFrame | None


def findings(outcomes: list[SuiteOutcome]) -> list[Finding]:
    """Every unmet expectation of every suite, failures first."""
    found = []
    for outcome in outcomes:
        for result in outcome.result.results:
            if not result.success:
                found.append(_finding(outcome.suite, result))
    return sorted(found, key=lambda f: f.level != "FAILED")


def _finding(suite: TableSuite, result: ExpectationValidationResult) -> Finding:
    config = result.expectation_config
    assert config is not None, "a validation result always names its expectation"
    kwargs = config.kwargs
    columns = _columns(kwargs, CHECKED_KWARGS)
    detail = result.result or {}
    rows = None
    if "unexpected_count" in detail:
        text = (f"{detail['unexpected_count']} of {detail.get('element_count', '?')} rows "
                "unexpected")
        positions = detail.get("partial_unexpected_index_list") or []
        if positions:
            shown = list(dict.fromkeys(
                [*suite.show, *columns, *_columns(kwargs, COMPARED_KWARGS)]))
            rows = suite.frame.iloc[positions[:SAMPLE_ROWS]][shown]
    elif result.exception_info and result.exception_info.get("raised_exception"):
        text = f"could not be evaluated: {result.exception_info.get('exception_message')}"
    else:
        text = f"observed {detail.get('observed_value')!r}"
    return Finding(
        level="WARNING" if config.severity == FailureSeverity.WARNING else "FAILED",
        table=suite.table, columns=columns, suite=suite.name, expectation=config.type,
        description=config.description or "", detail=text, rows=rows,
    )


def _columns(kwargs: dict, keys: tuple[str, ...]) -> list[str]:
    """Column names under `keys` of an expectation's kwargs, flattening column_list."""
    return [c for key in keys if key in kwargs
            for c in (kwargs[key] if isinstance(kwargs[key], list) else [kwargs[key]])]


def render(stage: str, db: Path, outcomes: list[SuiteOutcome], notes: list[str],
           docs_index: Path, summary: Path) -> str:
    """The whole report: a line per suite, then each failure and warning with sample rows."""
    found = findings(outcomes)
    failed = sum(f.level == "FAILED" for f in found)
    warned = sum(f.level == "WARNING" for f in found) + len(notes)
    checked = sum(len(o.result.results) for o in outcomes)
    lines = [f"quality gate, stage {stage}: {db}"]
    for outcome in outcomes:
        bad = [f for f in found if f.suite == outcome.suite.name]
        state = "ok" if not bad else ", ".join(
            f"{sum(f.level == level for f in bad)} {level.lower()}"
            for level in ("FAILED", "WARNING") if any(f.level == level for f in bad))
        lines.append(f"  {outcome.suite.name:<58} {len(outcome.result.results):>3} checks  {state}")
    for finding in found:
        where = ", ".join(f"{finding.table}.{c}" for c in finding.columns) or finding.table
        lines += ["", f"{finding.level}  {where}: {finding.description}",
                  f"    {finding.expectation} on {finding.suite}: {finding.detail}"]
        if finding.rows is not None:
            lines += ["    " + line for line in finding.rows.to_string(index=False).splitlines()]
    lines += [f"\nWARNING  {note}" for note in notes]
    verdict = "FAILED" if failed else "passed"
    lines += ["", f"Report (reads offline): {summary}",
              f"GX Data Docs (need a network to render): {docs_index}",
              f"{verdict}: {checked} checks, {failed} failed, {warned} warnings"]
    return "\n".join(lines)
