"""Read input files into records without losing any: every record either comes back as a
dict or as a rejection naming where it was and what was wrong with it.

Files arrive from crawlers, paperlists dumps and hand edits, so a truncated line, a stray
binary file or a Latin-1 export must give a clear message, not a traceback, and must not
stop the good records of the same file from loading. JSON and JSON Lines are read by
`paperrank.ingest.jsonl_reader` (streaming, gzip by content); parquet by pyarrow, in batches.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from paperrank.core.errors import PaperrankError
from paperrank.core.loads import Rejection
from paperrank.ingest.jsonl_reader import Unreadable, read_items

Record = dict[str, Any]
FORMATS = (".parquet", ".json", ".jsonl", ".ndjson")


def read_records(path: Path) -> Iterator[tuple[str, Record | Rejection]]:
    """Yield (location, record) pairs; a record that cannot be read is a Rejection.

    Parquet, a JSON array and JSON Lines are read, optionally gzip-compressed. Problems with
    the whole file (missing, empty, binary, corrupt) raise ValueError or OSError naming it.
    """
    if not path.exists():
        raise PaperrankError(f"{path}: no such file")
    kind = ([s.lower() for s in path.suffixes if s.lower() != ".gz"][-1:] or ["(none)"])[0]
    if kind not in FORMATS:
        raise PaperrankError(
            f"unknown format: {path} has the extension {kind}; this loader reads "
            f"{', '.join(FORMATS)} files (optionally .gz); convert the file to one of them")
    if kind == ".parquet":
        yield from _read_parquet(path)
        return
    for item in read_items(path):
        if isinstance(item, Unreadable):
            yield item.where, Rejection(item.where, item.reason, item.raw)
        elif isinstance(item.value, dict):
            yield item.where, item.value
        else:
            kind = type(item.value).__name__
            yield item.where, Rejection(item.where, f"not an object: {item.where} is a {kind}",
                                        item.value)


def _read_parquet(path: Path) -> Iterator[tuple[str, Record | Rejection]]:
    import pyarrow.lib
    import pyarrow.parquet as pq

    try:
        parquet = pq.ParquetFile(path)
    except (pyarrow.lib.ArrowException, OSError) as error:
        raise PaperrankError(f"{path}: not a readable parquet file ({error})") from None
    row = 0
    for batch in parquet.iter_batches(batch_size=10_000):
        for record in batch.to_pylist():
            row += 1
            yield f"row {row}", record
