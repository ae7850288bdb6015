"""The `derived` schema: what paperrank.related computes, kept for dbt to read as a source.

Not `raw`: the raw layer is the loaders' and is fingerprinted around every build
(paperrank.pipeline.fingerprint), while these tables are recomputed from it.  Each result is
kept with the keys it was computed from (`derived.computations`): the input's hash (the
venue's paper texts, and for sub-themes and the audit its labels) and the method's
(paperrank.related.method), so a refresh with the same inputs computes nothing.  Every part of
a venue is replaced in one transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import duckdb

from paperrank.core.schema import DERIVED_DDL

if TYPE_CHECKING:  # only a type here: the warehouse module imports this one at dbt's start-up
    import pandas as pd

# the tables a part replaces, and whether they are per taxonomy and label model
PART_TABLES: dict[str, tuple[tuple[str, ...], bool]] = {
    "related": (("related_inputs", "paper_related"), False),
    "subthemes": (("paper_subthemes", "category_subthemes"), True),
    "audit": (("label_audit",), True),
    "layouts": (("layout_quality", "paper_layouts"), True),
}


@dataclass(frozen=True)
class Scope:
    """What one result belongs to: a venue, a part and, for labels, a taxonomy and model."""

    venue: str
    part: str
    taxonomy: str = ""
    label_model: str = ""


def ensure(con: duckdb.DuckDBPyConnection) -> None:
    con.execute(DERIVED_DDL)


def kept(con: duckdb.DuckDBPyConnection, scope: Scope, input_key: str, method_key: str,
         related_papers: int = 0) -> bool:
    """Whether this result is stored already for exactly these inputs and this method."""
    row = con.execute(
        "select count(*) from derived.computations where venue = ? and part = ? and taxonomy = ? "
        "and label_model = ? and input_key = ? and method_key = ? and related_papers = ?",
        [scope.venue, scope.part, scope.taxonomy, scope.label_model, input_key, method_key,
         related_papers]).fetchall()
    return bool(row[0][0])


def replace(con: duckdb.DuckDBPyConnection, scope: Scope, frames: Sequence[pd.DataFrame],
            record: dict[str, Any]) -> None:
    """Replace the scope's rows of the part's tables with `frames` (one per table, in
    PART_TABLES order) and record the computation, in one transaction."""
    tables, per_labels = PART_TABLES[scope.part]
    where = "venue = ?" + (" and taxonomy = ? and label_model = ?" if per_labels else "")
    keys = [scope.venue, scope.taxonomy, scope.label_model] if per_labels else [scope.venue]
    con.execute("begin transaction")
    try:
        for table, frame in zip(tables, frames, strict=True):
            con.execute(f"delete from derived.{table} where {where}", keys)
            if len(frame):
                con.register("incoming", frame)
                try:
                    columns = ", ".join(frame.columns)
                    con.execute(f"insert into derived.{table} ({columns}) select {columns} from incoming")
                finally:
                    con.unregister("incoming")
        con.execute("delete from derived.computations where venue = ? and part = ? and taxonomy = ? "
                    "and label_model = ?", [scope.venue, scope.part, scope.taxonomy, scope.label_model])
        con.execute(
            "insert into derived.computations values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [scope.venue, scope.part, scope.taxonomy, scope.label_model, record["input_key"],
             record["method_key"], record.get("related_papers", 0), record["papers"],
             record["rows"], record["seconds"], record["vector_seconds"], datetime.now(UTC)])
        con.execute("commit")
    except Exception:
        con.execute("rollback")
        raise
