"""The report's "How far to trust this ranking" section says which intervals the mart holds:
the seeded bootstrap's, or the closed forms `auto` takes at a scale where resampling would not
fit (and a published build from before the mart recorded the method, which resampled)."""

from __future__ import annotations

import duckdb
import pytest

from paperrank.report import validity

COLUMNS = ("venue varchar, category varchar, population varchar, outcome varchar, score varchar, "
           "metric varchar, value double, n bigint, n_positive bigint, ci_low double, "
           "ci_high double, replicates bigint, reliability double, ceiling double, "
           "ceiling_note varchar")
ROWS = [("V", None, "all_submissions", "accepted", "rating_mean", "auc", 0.9, 100, 40, 0.85, 0.95,
         None, 0.7, 0.88, None),
        ("V", None, "all_submissions", "citations", "rating_mean", "spearman", 0.5, 90, None, 0.33,
         0.64, None, 0.7, 0.84, None)]


def mart(methods: list[str] | None) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute("create schema marts")
    extra = ", interval_method varchar" if methods is not None else ""
    con.execute(f"create table marts.ranking_validity ({COLUMNS}{extra})")
    for row, method in zip(ROWS, methods or [None] * len(ROWS), strict=True):
        con.execute(f"insert into marts.ranking_validity values ({', '.join('?' * (len(row) + bool(extra)))})",
                    [*row, method] if extra else list(row))
    return con


@pytest.mark.parametrize(("methods", "kind"), [
    (["bootstrap", "bootstrap"], validity.BOOTSTRAP),
    (["delong", "fisher_z"], validity.CLOSED_FORM),
    (None, validity.BOOTSTRAP),
])
def test_the_section_names_the_intervals_the_mart_holds(methods: list[str] | None, kind: str) -> None:
    section = validity.load(mart(methods), "V", {"ranking_validity"})
    assert section is not None and section.interval_kind == kind
    assert [r["value"] for r in section.rows] == [0.9, 0.5]
    assert section.plot is not None and section.plot.alt
