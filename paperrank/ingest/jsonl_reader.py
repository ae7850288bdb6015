"""Read a file of JSON notes defensively, one record at a time.

Snapshots and hand-made dumps arrive gzip-compressed or plain, as JSON lines (a line may
also be one whole API answer, `{"notes": [...]}`) or as one JSON array.  What is wrong with
a file decides between two outcomes: a problem with the whole file (empty, binary, corrupt
gzip) is a ValueError with one clear sentence; a problem with one line (bad UTF-8, broken
or truncated JSON, an absurdly long line) becomes an `Unreadable` item so the rest loads.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from paperrank.core.errors import PaperrankError

GZIP_MAGIC = b"\x1f\x8b"
MAX_LINE_BYTES = 32 * 1024 * 1024  # a real note with all its replies is well under 1 MB
_PEEK = 8192
_DRAIN = 1024 * 1024


@dataclass(frozen=True)
class Item:
    """One JSON value read from the file, with where it came from ("line 12")."""

    where: str
    value: Any


@dataclass(frozen=True)
class Unreadable:
    """A line that could not be read as JSON; `reason` starts with its kind."""

    where: str
    reason: str
    raw: bytes


def read_items(path: Path, max_line_bytes: int = MAX_LINE_BYTES) -> Iterator[Item | Unreadable]:
    """Yield every JSON value (or unreadable line) of a notes file in order."""
    path = Path(path)
    if not path.exists():
        raise PaperrankError(f"{path}: no such file")
    if path.is_dir():
        raise PaperrankError(f"{path} is a directory, not a notes file")
    if path.stat().st_size == 0:
        raise PaperrankError(f"empty file: {path} has no content")
    try:
        with _open(path) as handle:
            head = handle.peek(_PEEK)[:_PEEK] if hasattr(handle, "peek") else b""
            if b"\x00" in head:
                raise PaperrankError(
                    f"binary file: {path} is not JSON lines (it contains NUL bytes); "
                    "expected a .jsonl or .jsonl.gz of OpenReview notes"
                )
            if head.lstrip().startswith(b"["):
                yield from _document_items(path, handle)
            else:
                yield from _line_items(handle, max_line_bytes)
    except (EOFError, gzip.BadGzipFile, zlib.error) as error:
        raise PaperrankError(f"corrupt gzip file: {path}: {error}") from None


def _open(path: Path) -> IO[bytes]:
    with path.open("rb") as probe:
        magic = probe.read(2)
    if magic == GZIP_MAGIC:
        return gzip.open(path, "rb")  # type: ignore[return-value]
    return path.open("rb")


def _document_items(path: Path, handle: IO[bytes]) -> Iterator[Item | Unreadable]:
    """A whole-file JSON array of notes: all or nothing, since its lines mean nothing alone."""
    raw = handle.read()
    try:
        value = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise PaperrankError(f"not UTF-8: {path}: {error}") from None
    except (ValueError, RecursionError) as error:
        raise PaperrankError(f"invalid json: {path} starts with '[' but is not one JSON array: "
                         f"{_short(error)}") from None
    if not isinstance(value, list):
        raise PaperrankError(f"invalid json: {path} is not a JSON array of notes")
    for index, element in enumerate(value, start=1):
        yield Item(f"item {index}", element)


def _line_items(handle: IO[bytes], max_line_bytes: int) -> Iterator[Item | Unreadable]:
    line_no = 0
    while True:
        raw = handle.readline(max_line_bytes + 1)
        if not raw:
            return
        line_no += 1
        where = f"line {line_no}"
        if len(raw) > max_line_bytes and not raw.endswith(b"\n"):
            size = len(raw) + _drain_line(handle)
            yield Unreadable(
                where,
                f"oversized record: {where} is {size} bytes (limit {max_line_bytes})",
                raw[:200],
            )
            continue
        if not raw.strip():
            continue
        ends_file = not raw.endswith(b"\n")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            yield Unreadable(
                where,
                f"invalid utf-8: {where}: byte 0x{raw[error.start]:02x} at position "
                f"{error.start} is not UTF-8",
                raw,
            )
            continue
        try:
            value = json.loads(text)
        except (ValueError, RecursionError) as error:
            hint = " (the last line looks truncated)" if ends_file else ""
            yield Unreadable(where, f"invalid json: {where}: {_short(error)}{hint}", raw)
            continue
        yield Item(where, value)


def _drain_line(handle: IO[bytes]) -> int:
    """Skip the rest of an oversized line without holding it in memory; return its size."""
    skipped = 0
    while True:
        chunk = handle.readline(_DRAIN)
        skipped += len(chunk)
        if not chunk or chunk.endswith(b"\n"):
            return skipped


def _short(error: BaseException) -> str:
    if isinstance(error, RecursionError):
        return "nested too deeply"
    return str(error)[:200]
