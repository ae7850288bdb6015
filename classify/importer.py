"""`python -m classify import PATH --taxonomy NAME`: load labels someone else produced.

Label sets arrive as CSV, parquet or JSONL from other tools (the peer ICLR 2026 labels are one),
so column names vary; the aliases below cover the common ones. A label whose category is not in
the taxonomy, or whose paper is unknown, is kept aside in `raw.rejected_records`, never loaded.
"""

from __future__ import annotations

import argparse
import csv
import re
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from classify.taxonomy import load_taxonomy
from ingest.errors import PaperrankError
from ingest.records import read_records
from ingest.warehouse import Batch, Rejection, connect, write_batch

ALIASES = {
    "paper_id": ("paper_id", "openreview_id", "id", "forum"),
    "category": ("category", "llm_category", "label"),
    "confidence": ("confidence", "llm_confidence"),
    "rationale": ("rationale", "llm_reasoning", "reasoning", "reason"),
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", type=Path, help="CSV, parquet or JSONL file of labels")
    parser.add_argument("--taxonomy", required=True, help="taxonomy of seeds/taxonomies.csv")
    parser.add_argument("--model", help="name stored as the labels' model (default: import:<file name>)")


def run(args: argparse.Namespace) -> int:
    categories = [c.name for c in load_taxonomy(args.taxonomy).categories]
    if not args.path.exists():
        raise PaperrankError(f"{args.path}: no such file")
    labeled_at = datetime.fromtimestamp(args.path.stat().st_mtime, UTC)
    model = args.model or f"import:{args.path.name}"
    con = connect()
    try:
        known = {row[0] for row in con.execute("select paper_id from raw.papers").fetchall()}
        batch = build_batch(args.path, args.taxonomy, categories, model, labeled_at, known)
        summary = write_batch(con, batch)
    finally:
        con.close()
    print(summary.render())
    return 0


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _pick(record: dict, field: str) -> object:
    return next((record[a] for a in ALIASES[field] if record.get(a) not in (None, "")), None)


def read_label_file(path: Path) -> pd.DataFrame:
    """Read a label file into paper_id, category, confidence, rationale (the readable rows).

    Used by `classify eval` to compare label sets; rows that cannot be read are skipped here
    because evaluation reads, it does not load.
    """
    rows = []
    for _, record in _label_records(path):
        if isinstance(record, dict) and _pick(record, "paper_id") is not None:
            rows.append({field: _pick(record, field) for field in ALIASES})
    return pd.DataFrame(rows, columns=list(ALIASES))


def _label_records(path: Path):
    if path.suffix.lower() == ".csv":
        with path.open(newline="", encoding="utf-8-sig") as handle:
            for number, row in enumerate(csv.DictReader(handle), start=2):
                yield f"line {number}", row
        return
    yield from read_records(path)


def build_batch(path: Path, taxonomy: str, categories: list[str], model: str,
                labeled_at: datetime, known_papers: set[str]) -> Batch:
    """Validate every label of the file against the taxonomy and the loaded papers."""
    by_squash = {_squash(c): c for c in categories}
    batch = Batch(kind="labels", source=str(path.resolve()), snapshot_at=labeled_at)
    seen: set[str] = set()
    try:
        records = list(_label_records(path))
    except UnicodeDecodeError as error:
        raise PaperrankError(f"{path}: not UTF-8 text (byte {error.start})") from None
    for location, record in records:
        batch.records_read += 1
        if isinstance(record, Rejection):
            batch.rejected.append(record)
            continue
        paper_id = _pick(record, "paper_id")
        category = _pick(record, "category")
        if paper_id is None:
            batch.reject(location, f"missing id: {location} has no paper id", record)
            continue
        key = f"label {taxonomy}/{paper_id}"
        if category is None:
            batch.reject(key, f"missing field: {key} has no category", record)
            continue
        canonical = by_squash.get(_squash(str(category)))
        if canonical is None:
            batch.reject(key, f"unknown category: {key} has {str(category)[:80]!r}, not one of "
                              f"the {taxonomy} categories ({', '.join(categories)})", record)
            continue
        if str(paper_id) not in known_papers:
            batch.reject(key, f"unknown paper: {key} is not in raw.papers (load papers first)",
                         record)
            continue
        if str(paper_id) in seen:
            batch.reject(key, f"duplicate label: {key} appears again at {location}", record)
            continue
        seen.add(str(paper_id))
        confidence = _pick(record, "confidence")
        rationale = _pick(record, "rationale")
        batch.labels.append({
            "paper_id": str(paper_id),
            "taxonomy": taxonomy,
            "category": canonical,
            "confidence": None if confidence is None else str(confidence),
            "rationale": None if rationale is None else str(rationale),
            "model": model,
            "prompt_hash": None,
            "source": batch.source,
            "labeled_at": labeled_at,
        })
    return batch
