"""Python's CSV field limit, applied to a record after it is read, never while it is read.

Python's csv module stops at a field longer than its limit (131,072 characters) with "field
larger than field limit", in the middle of the record: the reader is then out of step with the
file (a long quoted note's remaining lines read as records of their own), so a strict reader
could only refuse the whole file, and said why in words about quotes. Reading with the limit
raised to the file's own size (no field can be longer than its file) keeps every record whole;
`oversized` then names the one record whose field is over the limit, and its reader refuses that
record alone with the real reason while the rest of the file follows the usual rules.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

# Python's csv default: what a field may hold in any file paperrank reads
FIELD_LIMIT = 131_072


@contextmanager
def whole_fields(size: int) -> Iterator[None]:
    """Read CSV with the field limit raised to `size` (the file's length), restored after."""
    before = csv.field_size_limit()
    csv.field_size_limit(max(before, size + 1))
    try:
        yield
    finally:
        csv.field_size_limit(before)


def oversized(fields: Sequence[str], columns: Sequence[str] | None = None) -> str | None:
    """Why a record cannot be taken when one of its fields is over FIELD_LIMIT, or None."""
    for index, value in enumerate(fields):
        if len(value) > FIELD_LIMIT:
            name = (repr(columns[index]) if columns is not None and index < len(columns)
                    else str(index + 1))
            return (f"field {name} is {len(value):,} characters long, larger than the field "
                    f"limit ({FIELD_LIMIT:,})")
    return None
