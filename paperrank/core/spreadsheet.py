"""Text that a spreadsheet would run as a formula, made inert.

A cell that starts with `=`, `+`, `-` or `@` (or their full-width forms, which spreadsheets
fold to ASCII), a tab or a carriage return is read as a formula (OWASP "CSV injection"). Every
CSV the project writes for people to open prefixes such a cell with one apostrophe, so it
shows as text: the category CSVs in DuckDB's SQL (`SQL_FORMULA`, the same characters as a
pattern DuckDB's regular expressions read), the report page's download in its script
(report.js), and the Python writers (`paperrank rank-sets`, the experts' picks seed) through
this one rule.
"""

from __future__ import annotations

import re

TRIGGERS = "=+-@\t\r\uff1d\uff0b\uff0d\uff20"
FORMULA = re.compile("^[" + re.escape(TRIGGERS) + "]")
# the same class for DuckDB (RE2): the full-width forms as themselves, - tab and CR escaped
SQL_FORMULA = "^[" + TRIGGERS.replace("-", "\\-").replace("\t", "\\t").replace("\r", "\\r") + "]"


def inert_cell(text: str) -> str:
    """`text` as a spreadsheet shows it: a leading apostrophe when it would start a formula.

    Idempotent (a neutralised cell starts with the apostrophe), so a file that went through
    the page's download and then through an import is neutralised once, not twice.
    """
    return "'" + text if FORMULA.match(text) else text


def plain_cell(text: str) -> str:
    """The value behind a cell `inert_cell` made: for a key read back from such a CSV (a paper
    id, a venue, a category), which must match the warehouse byte for byte. OpenReview ids may
    start with `-`; the report page's download writes such an id as `'-...`."""
    return text[1:] if text.startswith("'") and FORMULA.match(text[1:]) else text
