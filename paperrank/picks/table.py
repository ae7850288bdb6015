"""A picks CSV read strictly: its header and its records with their line numbers, or the one
place where the file stops being a CSV.

The page's download and the seed are CSV with quoted notes that may span lines. A lenient
reader takes an unclosed quote as the start of a note that runs to the end of the file and
swallows every row below it into that note; a row with a field too many or too few shifts its
cells. Neither can be repaired by guessing, and after a broken quote nothing below it can be
trusted, so both make the whole file unreadable (`Malformed`, with the line where the broken
record starts): the caller refuses the file, and takes none of its rows. A field longer than
Python's CSV field limit is not a broken file: it is read whole (paperrank.core.csv_fields) and
the caller refuses its row alone.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from paperrank.core.csv_fields import whole_fields
from paperrank.core.errors import PaperrankError

# the seed's columns, and the page's download (the same, in the same order)
COLUMNS = ("venue", "paper_id", "category", "selected_by", "note")
# downloads and seeds made before picks carried their venue: the venue comes from the paper
LEGACY_COLUMNS = ("paper_id", "category", "selected_by", "note")


class Malformed(Exception):
    """The file is not a well-formed picks CSV from `line` on; nothing of it can be taken."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(reason)
        self.line = line
        self.reason = reason


@dataclass(frozen=True)
class Table:
    """A picks CSV: its header (one of COLUMNS, LEGACY_COLUMNS) and its non-blank records,
    each with the line it starts on."""

    columns: tuple[str, ...]
    records: list[tuple[int, list[str]]]

    @property
    def has_venue(self) -> bool:
        return self.columns == COLUMNS


def read_table(path: Path) -> Table:
    """Read `path` strictly; raise Malformed (line, reason) when any of it is not a well-formed
    picks CSV, PaperrankError when it cannot be read at all."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise PaperrankError(f"cannot read {path}: {error.strerror}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise Malformed(line, f"not UTF-8 text ({error.reason} at byte {error.start})") from None
    reader = csv.reader(io.StringIO(text.replace("\r\n", "\n"), newline=""), strict=True)
    records: list[tuple[int, list[str]]] = []
    start = 1
    try:
        with whole_fields(len(text)):  # a long field is one row's problem (`oversized`)
            for fields in reader:
                if any(cell.strip() for cell in fields):
                    records.append((start, fields))
                start = reader.line_num + 1
    except csv.Error as error:
        raise Malformed(start, _quote_problem(str(error))) from None
    if not records:
        raise Malformed(1, "empty file: no header line")
    (_, header), body = records[0], records[1:]
    columns = tuple(cell.strip() for cell in header)
    if columns not in (COLUMNS, LEGACY_COLUMNS):
        raise Malformed(1, f"header is {','.join(header)!r}; a picks file starts with "
                           f"{','.join(COLUMNS)!r} (or, made before picks had a venue, "
                           f"{','.join(LEGACY_COLUMNS)!r})")
    for line, fields in body:
        if len(fields) != len(columns):
            raise Malformed(line, f"{len(fields)} fields where the header has {len(columns)} "
                                  f"({','.join(columns)}): a comma outside quotes, or a cut line")
    return Table(columns, body)


def _quote_problem(error: str) -> str:
    if "unexpected end of data" in error:
        return ("a quoted field that starts here is never closed: every line below it would be "
                "read as one note")
    return f"{error}: a double quote out of place"
