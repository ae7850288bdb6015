"""The quality results as one plain HTML page that reads offline.

GX Data Docs load jQuery, Bootstrap and Vega from a CDN and render blank without a network.
This page, written beside them as `summary.html`, holds what they show that matters (every
expectation with its outcome, each failure and warning with sample rows) and names the
warehouse file that was checked.  It has no script and no external asset: the style is
inline, and every value from the data is HTML-escaped, so a title such as `<script>` shows
as text.
"""

from __future__ import annotations

import html
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from paperrank.quality.engine import SuiteOutcome
from paperrank.quality.report import Finding, findings

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 80em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
.FAILED { color: #a00; font-weight: bold; } .WARNING { color: #a60; } .passed { color: #070; }
code { background: #f6f6f6; padding: 0 0.2em; }
"""


def write_summary(path: Path, stage: str, db: Path, outcomes: list[SuiteOutcome],
                  notes: list[str]) -> Path:
    """Write the stage's offline summary page to `path` and return it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_page(stage, db, outcomes, notes), encoding="utf-8")
    return path


def render_page(stage: str, db: Path, outcomes: list[SuiteOutcome], notes: list[str]) -> str:
    found = findings(outcomes)
    failed = sum(f.level == "FAILED" for f in found)
    warned = sum(f.level == "WARNING" for f in found) + len(notes)
    checked = sum(len(o.result.results) for o in outcomes)
    verdict = "FAILED" if failed else "passed"
    e = html.escape
    parts = [
        "<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>paperrank quality, stage {e(stage)}: {verdict}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>Quality gate, stage {e(stage)}: <span class=\"{verdict}\">{verdict}</span></h1>",
        f"<p>Warehouse checked: <code>{e(str(db.resolve()))}</code><br>",
        f"Checked at {datetime.now(UTC):%Y-%m-%d %H:%M:%S} UTC: {checked} checks, "
        f"{failed} failed, {warned} warnings.</p>",
    ]
    if found or notes:
        parts.append("<h2>Failures and warnings</h2>")
        parts += [_finding(f) for f in found]
        parts += [f'<p class="WARNING">WARNING {e(note)}</p>' for note in notes]
    parts.append("<h2>Every check</h2>")
    for outcome in outcomes:
        parts.append(_suite(outcome, found))
    parts.append("<p>The great-expectations Data Docs beside this page "
                 '(<a href="index.html">index.html</a>) hold the same results and need a '
                 "network connection to render.</p></body></html>")
    return "\n".join(parts)


def _finding(finding: Finding) -> str:
    e = html.escape
    where = ", ".join(f"{finding.table}.{c}" for c in finding.columns) or finding.table
    text = (f'<h3 class="{finding.level}">{finding.level} {e(where)}: {e(finding.description)}'
            f"</h3><p><code>{e(finding.expectation)}</code> on {e(finding.suite)}: "
            f"{e(finding.detail)}</p>")
    if finding.rows is not None:
        text += _table(finding.rows)
    return text


def _suite(outcome: SuiteOutcome, found: list[Finding]) -> str:
    e = html.escape
    rows = []
    for result in outcome.result.results:
        config = result.expectation_config
        assert config is not None, "a validation result always names its expectation"
        columns = [str(v) for key in ("column", "column_A", "column_B", "column_list")
                   for v in _listed(config.kwargs.get(key)) if v is not None]
        level = "passed" if result.success else next(
            (f.level for f in found if f.suite == outcome.suite.name
             and f.expectation == config.type and f.description == (config.description or "")),
            "FAILED")
        rows.append(f'<tr><td class="{level}">{level}</td><td>{e(", ".join(columns))}</td>'
                    f"<td>{e(config.description or '')}</td><td><code>{e(config.type)}</code>"
                    "</td></tr>")
    return (f"<h3>{e(outcome.suite.name)} <small>({e(outcome.suite.table)})</small></h3>"
            "<table><tr><th>result</th><th>columns</th><th>check</th><th>expectation</th></tr>"
            + "".join(rows) + "</table>")


def _table(frame: pd.DataFrame) -> str:
    e = html.escape
    head = "".join(f"<th>{e(str(c))}</th>" for c in frame.columns)
    body = "".join("<tr>" + "".join(f"<td>{e(str(v))}</td>" for v in row) + "</tr>"
                   for row in frame.itertuples(index=False, name=None))
    return f"<table><tr>{head}</tr>{body}</table>"


def _listed(value: Any) -> list[Any]:
    """A kwarg that names one column or a list of them, as a list."""
    return value if isinstance(value, list) else [value]
