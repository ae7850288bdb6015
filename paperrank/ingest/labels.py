"""`paperrank classify import PATH --taxonomy NAME`: load labels someone else produced.

Label sets arrive as CSV, parquet or JSONL from other tools (the peer ICLR 2026 labels are one),
so column names vary; the aliases below cover the common ones. A label whose category is not in
the taxonomy, or whose paper is unknown, is kept aside in `raw.rejected_records`, never loaded.
"""

from __future__ import annotations

import csv
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from paperrank.core.errors import PaperrankError
from paperrank.core.loads import Batch, Rejection, write_batch
from paperrank.core.taxonomy import load_taxonomy
from paperrank.core.warehouse import connect
from paperrank.ingest.fields import BadField, clean_text
from paperrank.ingest.loaded import finish_load
from paperrank.ingest.records import read_records

ALIASES = {
    "paper_id": ("paper_id", "openreview_id", "id", "forum"),
    "category": ("category", "llm_category", "label"),
    "confidence": ("confidence", "llm_confidence"),
    "rationale": ("rationale", "llm_reasoning", "reasoning", "reason"),
}


def import_labels(path: Path, taxonomy: str, model: str | None) -> None:
    """Load a label file of `taxonomy` into raw.paper_labels (as `model`, default
    import:<file name>); print the load summary."""
    categories = [c.name for c in load_taxonomy(taxonomy).categories]
    if not path.exists():
        raise PaperrankError(f"{path}: no such file")
    labeled_at = datetime.fromtimestamp(path.stat().st_mtime, UTC)
    model = model or f"import:{path.name}"
    con = connect()
    try:
        known = {row[0] for row in con.execute("select paper_id from raw.papers").fetchall()}
        batch = build_batch(path, taxonomy, categories, model, labeled_at, known)
        summary = write_batch(con, batch)
    finally:
        con.close()
    finish_load(summary)


def _category_key(text: str) -> str:
    """The category name as matched: exact, but for case and surrounding white space.

    Nothing else is folded: `AI/Systems` is not `AI Systems`, `C++ Agents` is not `C Agents`,
    and a name in another script is compared letter for letter (an earlier rule kept only
    a-z and 0-9, which merged such names and stored `???` as a category)."""
    return text.strip().casefold()


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


CSV_FIELD_BYTES = 64 * 1024 * 1024  # read an oversized cell whole, then reject its row by LIMITS


def _label_records(path: Path):
    if path.suffix.lower() == ".csv":
        csv.field_size_limit(max(csv.field_size_limit(), CSV_FIELD_BYTES))
        with path.open(newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle)
            try:
                for row in reader:
                    yield f"line {reader.line_num}", row
            except csv.Error as error:
                raise PaperrankError(f"{path}: unreadable CSV at line {reader.line_num}: "
                                     f"{error}") from None
        return
    yield from read_records(path)


def _label(record: dict, location: str, taxonomy: str, by_key: dict[str, str],
           categories: list[str]) -> dict | Rejection:
    """One record's label fields, cleaned and capped, or the Rejection saying why not."""
    def text(field: str, where: str) -> str | None:
        value = _pick(record, field)
        return None if value is None else clean_text(str(value), where, field)

    paper_id = text("paper_id", location)
    if paper_id is None:
        return Rejection(location, f"missing id: {location} has no paper id", record)
    key = f"label {taxonomy}/{paper_id}"
    category = text("category", key)
    if category is None:
        return Rejection(key, f"missing field: {key} has no category", record)
    canonical = by_key.get(_category_key(category))
    if canonical is None:
        return Rejection(key, f"unknown category: {key} has {category[:80]!r}, not one of "
                              f"the {taxonomy} categories ({', '.join(categories)})", record)
    return {"paper_id": paper_id, "category": canonical,
            "confidence": text("confidence", key), "rationale": text("rationale", key)}


def build_batch(path: Path, taxonomy: str, categories: list[str], model: str,
                labeled_at: datetime, known_papers: set[str]) -> Batch:
    """Validate every label of the file against the taxonomy and the loaded papers."""
    by_key = {_category_key(c): c for c in categories}
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
        try:
            label = _label(record, location, taxonomy, by_key, categories)
        except BadField as error:
            batch.reject(location, str(error), record)
            continue
        if isinstance(label, Rejection):
            batch.rejected.append(label)
            continue
        paper_id, key = label["paper_id"], f"label {taxonomy}/{label['paper_id']}"
        if paper_id not in known_papers:
            batch.reject(key, f"unknown paper: {key} is not in raw.papers (load papers first)",
                         record)
            continue
        if paper_id in seen:
            batch.reject(key, f"duplicate label: {key} appears again at {location}", record)
            continue
        seen.add(paper_id)
        batch.labels.append({**label, "taxonomy": taxonomy, "model": model, "prompt_hash": None,
                             "source": batch.source, "labeled_at": labeled_at})
    return batch
