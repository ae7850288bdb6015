"""Which expert names are taken, and when two spellings are one expert.

A name lands in a CSV cell, in the seed and on the report page; one made of letters, digits,
spaces and `. ' _ ( ) -`, starting with a letter or digit, reads the same in all three (no
comma or quote for a CSV to split on, no `<` or `&` for a page, no leading `=`, `+`, `-`, `@`
for a spreadsheet to run).  The report page's script applies the same rule before it offers
the download (templates/report.js, NAME_RE).

An expert types a name into a browser: `Ann`, `ann` and a full-width `Ａnn` (an input method
left in full-width mode) are one person, and so are `José` typed composed and typed as `e` plus
a combining accent (some keyboards and file systems decompose). A name is therefore checked in
its NFC form (`name_problem`), and names are compared by `expert_key`: Unicode NFKC (composed,
full-width and compatibility forms to their plain letters) then case folding. What the
seed stores is `stored_name`, the NFKC form of the spelling seen first (the seed's, else the
first imported file's), so an expert's later downloads in another width or case neither add a
second expert nor rewrite the first one's lines.
"""

from __future__ import annotations

import re
import unicodedata

MAX_LENGTH = 80
_NAME = re.compile(rf"[^\W_][\w .'()\-]{{0,{MAX_LENGTH - 1}}}")


def stored_name(name: str) -> str:
    """The spelling the seed keeps: NFKC (`Ａnn` is stored as `Ann`)."""
    return unicodedata.normalize("NFKC", name)


def expert_key(name: str) -> str:
    """What identifies an expert: NFKC, case-folded, NFKC again (Unicode's NFKC_Casefold
    closure), so any width or case of one name gives one key."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def name_problem(name: str) -> str | None:
    """Why `name` cannot be an expert's name, or None when it can: in NFC (a name typed in
    decomposed form, `e` and a combining accent, is the same name as its composed `é`), and as
    stored (NFKC may turn an allowed character into one that is not, `＝` into `=`)."""
    problem = _spelling_problem(unicodedata.normalize("NFC", name))
    if problem is None and stored_name(name) != name:
        problem = _spelling_problem(stored_name(name))
        if problem is not None:
            problem = f"{problem} (in its NFKC form {stored_name(name)!r}, as the seed stores it)"
    return problem


def _spelling_problem(name: str) -> str | None:
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
