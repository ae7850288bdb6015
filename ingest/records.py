"""Read input files into records without losing any: every record either comes back as a
dict or as a rejection naming where it was and what was wrong with it.

Files arrive from crawlers, paperlists dumps and hand edits, so a truncated line, a stray
binary file or a Latin-1 export must give a clear message, not a traceback, and must not
stop the good records of the same file from loading.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ingest.warehouse import Rejection

Record = dict[str, Any]
JSONL_SUFFIXES = {".jsonl", ".ndjson"}


def _suffixes(path: Path) -> list[str]:
    suffixes = [s.lower() for s in path.suffixes]
    return suffixes[:-1] if suffixes and suffixes[-1] == ".gz" else suffixes


def _read_bytes(path: Path) -> bytes:
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file")
    if path.is_dir():
        raise ValueError(f"{path}: is a folder, not a file")
    raw = path.read_bytes()
    if path.suffix.lower() == ".gz":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as error:
            raise ValueError(f"{path}: not a readable gzip file ({error})") from None
    return raw


def read_records(path: Path) -> Iterator[tuple[str, Record | Rejection]]:
    """Yield (location, record) pairs; a record that cannot be read is a Rejection.

    Parquet, JSON (an array, or an object holding one array) and JSON Lines are read, each
    optionally gzip-compressed. Problems with the whole file (missing, empty, binary, not
    UTF-8 at all) raise ValueError with the file's name.
    """
    suffixes = _suffixes(path)
    if suffixes and suffixes[-1] == ".parquet":
        yield from _read_parquet(path)
        return
    raw = _read_bytes(path)
    if not raw.strip():
        raise ValueError(f"{path}: the file is empty")
    if b"\x00" in raw[:4096]:
        raise ValueError(f"{path}: looks like a binary file, not JSON")
    if suffixes and suffixes[-1] in JSONL_SUFFIXES:
        yield from _read_jsonl(path, raw)
        return
    yield from _read_json(path, raw)


def _read_parquet(path: Path) -> Iterator[tuple[str, Record | Rejection]]:
    import pyarrow.lib
    import pyarrow.parquet as pq

    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file")
    try:
        parquet = pq.ParquetFile(path)
    except (pyarrow.lib.ArrowException, OSError) as error:
        raise ValueError(f"{path}: not a readable parquet file ({error})") from None
    row = 0
    for batch in parquet.iter_batches(batch_size=10_000):
        for record in batch.to_pylist():
            row += 1
            yield f"row {row}", record


def _decode(location: str, raw: bytes) -> str | Rejection:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        return Rejection(location, f"not utf-8: {location} byte {error.start}", raw[:200])


def _read_jsonl(path: Path, raw: bytes) -> Iterator[tuple[str, Record | Rejection]]:
    for number, line in enumerate(raw.split(b"\n"), start=1):
        if not line.strip():
            continue
        location = f"line {number}"
        text = _decode(location, line)
        if isinstance(text, Rejection):
            yield location, text
            continue
        yield location, _parse_object(location, text)


def _read_json(path: Path, raw: bytes) -> Iterator[tuple[str, Record | Rejection]]:
    text = _decode("file", raw)
    if isinstance(text, Rejection):
        raise ValueError(f"{path}: not UTF-8 text ({text.reason})")
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        # A file of one object per line without the .jsonl suffix is common: try that first.
        if text.lstrip().startswith("{") and "\n" in text.strip():
            yield from _read_jsonl(path, raw)
            return
        raise ValueError(f"{path}: invalid JSON at line {error.lineno} column {error.colno}: "
                         f"{error.msg}") from None
    if isinstance(document, dict):
        lists = [value for value in document.values() if isinstance(value, list)]
        if len(lists) != 1:
            raise ValueError(f"{path}: expected a JSON array of records or an object holding "
                             f"exactly one array, found an object with keys {list(document)[:8]}")
        document = lists[0]
    if not isinstance(document, list):
        raise ValueError(f"{path}: expected a JSON array of records, found "
                         f"{type(document).__name__}")
    for index, item in enumerate(document, start=1):
        location = f"record {index}"
        if isinstance(item, dict):
            yield location, item
        else:
            yield location, Rejection(location, f"not an object: {location} is a "
                                                 f"{type(item).__name__}", item)


def _parse_object(location: str, text: str) -> Record | Rejection:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        return Rejection(location, f"invalid json: {location} column {error.colno}: {error.msg}",
                         text)
    if not isinstance(value, dict):
        return Rejection(location, f"not an object: {location} is a {type(value).__name__}", text)
    return value
