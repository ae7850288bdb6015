"""One mart value as the page shows it: absent values, links, anchors, titles, keyword lists.

The marts hold nulls as None, NaN or NaT depending on the column and the engine; `present` folds
them into one None so every table shows a missing value the same way.  Links are kept only when
they are http(s); text from authors stays a plain string (the template escapes it).
"""

from __future__ import annotations

import math
import re
from typing import Any
from urllib.parse import urlsplit

import pandas as pd

from paperrank.report import latex

FORUM_PREFIX = "https://openreview.net/forum?id="


def safe_url(url: Any) -> str | None:
    """Only http(s) links reach the page (a `javascript:` URL in the data must not)."""
    if not isinstance(url, str):
        return None
    return url if urlsplit(url.strip()).scheme in ("http", "https") else None


def present(value: Any) -> Any:
    """None for SQL NULL / NaN / NaT, so the template prints one placeholder for all."""
    if value is None or value is pd.NaT:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    try:
        if pd.isna(value):
            return None
    except (TypeError, ValueError):
        pass
    return value


def slugify(text: str) -> str:
    """Lower-case a-z0-9 words joined by '-': safe as a file name and a fragment id."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "unnamed"


def anchor_for(category: str, used: set[str]) -> str:
    """A stable, unique fragment id for a category section."""
    base = "cat-" + slugify(category)
    anchor, n = base, 2
    while anchor in used:
        anchor, n = f"{base}-{n}", n + 1
    used.add(anchor)
    return anchor


def title_text(title: Any) -> str:
    """The title a reader sees: LaTeX turned into plain text (see latex.to_text)."""
    title = present(title)
    return latex.to_text(str(title)) if title is not None else "(no title)"


def plain_text(value: Any) -> str | None:
    value = present(value)
    return None if value is None or not str(value).strip() else str(value)


def keywords_of(value: Any) -> list[str]:
    """paper_rankings.keywords ('; '-joined) as a list; none when the mart has no keywords."""
    text = plain_text(value)
    return [k.strip() for k in text.split("; ") if k.strip()] if text else []


def row_anchor(paper_id: str, used: set[str]) -> str:
    """The fragment id of a paper's row (a related-paper link jumps to it): unique on the page."""
    base = "p-" + (re.sub(r"[^A-Za-z0-9_-]+", "-", paper_id).strip("-") or "paper")
    anchor, n = base, 2
    while anchor in used:
        anchor, n = f"{base}-{n}", n + 1
    used.add(anchor)
    return anchor
