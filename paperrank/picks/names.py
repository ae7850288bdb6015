"""Which expert names are taken.

A name lands in a CSV cell, in the seed and on the report page; one made of letters, digits,
spaces and `. ' _ ( ) -`, starting with a letter or digit, reads the same in all three (no
comma or quote for a CSV to split on, no `<` or `&` for a page, no leading `=`, `+`, `-`, `@`
for a spreadsheet to run).  The report page's script applies the same rule before it offers
the download (templates/report.js, NAME_RE).
"""

from __future__ import annotations

import re

MAX_LENGTH = 80
_NAME = re.compile(rf"[^\W_][\w .'()\-]{{0,{MAX_LENGTH - 1}}}")


def name_problem(name: str) -> str | None:
    """Why `name` cannot be an expert's name, or None when it can."""
    if not name.strip():
        return "no expert name (selected_by is empty)"
    if name != name.strip():
        return f"expert name {name!r} starts or ends with a space"
    if len(name) > MAX_LENGTH:
        return f"expert name is {len(name)} characters long; at most {MAX_LENGTH} are allowed"
    if not _NAME.fullmatch(name):
        bad = sorted({c for c in name if not (c.isalnum() or c in " .'_()-")})
        detail = ", ".join(repr(c) for c in bad) if bad else "it must start with a letter or digit"
        return (f"expert name {name!r} has characters a CSV or a page would misread ({detail}); "
                "allowed: letters, digits, spaces and . ' _ ( ) -, starting with a letter or digit")
    return None
