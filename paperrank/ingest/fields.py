"""Text and link fields as the loaders store them: the one place their limits live.

Whatever a file holds, what reaches the warehouse is bounded, printable text: NUL and other
control characters (except tab and newline) are removed, a lone surrogate (half of a UTF-16
pair, which no UTF-8 file can hold and DuckDB would refuse, failing the whole load) rejects
its record, a field over its cap rejects its record, and a link must be an http(s) URL with
a host.  Each problem raises `BadField`, which the loaders turn into one rejected record.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from paperrank.core.errors import PaperrankError

# Characters kept per field; far above any real value (an ICLR 2026 abstract is < 3,000).
LIMITS = {
    "paper_id": 200,
    "title": 2_000,
    "abstract": 50_000,
    "primary_area": 300,
    "status": 300,
    "keyword": 300,
    "authors": 50_000,
    "url": 2_000,
    "forum_url": 2_000,
    "pdf_url": 2_000,
    "pdf": 2_000,
    "category": 300,
    "confidence": 100,
    "rationale": 5_000,
    "model": 300,
}
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


class BadField(PaperrankError):
    """One field of one record that cannot be stored; the message starts with its kind."""


def clean_text(value: str, where: str, field: str, limit_key: str | None = None) -> str | None:
    """The value without control characters and surrounding blanks (None when empty).

    `where` names the record ("paper P1"); `limit_key` picks the cap (default: `field`).
    """
    if _SURROGATE.search(value):
        raise BadField(f"invalid text: {where} field {field} holds a lone surrogate "
                       "(not valid Unicode)")
    text = _CONTROL.sub("", value).replace("\r", "").strip()
    limit = LIMITS[limit_key or field]
    if len(text) > limit:
        raise BadField(f"oversized field: {where} field {field}: {len(text)} characters "
                       f"(limit {limit})")
    return text or None


def clean_url(value: str | None, where: str, field: str) -> str | None:
    """An http(s) link with a host, or None; anything else (javascript:, a file path,
    spaces or control characters inside) raises BadField."""
    if value is None:
        return None
    text = clean_text(value, where, field, "url")
    if text is None:
        return None
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname or re.search(r"\s", text):
        raise BadField(f"invalid url: {where} field {field}: {text[:120]!r} is not an http(s) "
                       "link")
    return text


def join_authors(names: list[str], where: str) -> str | None:
    """Author names as raw.papers.authors stores them: cleaned, '; '-joined (None if none).

    A `;` inside a name would split it in two when read back, so it becomes a `,`.
    """
    cleaned = [clean_text(name, where, "authors") for name in names]
    joined = "; ".join(name.replace(";", ",") for name in cleaned if name)
    if len(joined) > LIMITS["authors"]:
        raise BadField(f"oversized field: {where} field authors: {len(joined)} characters "
                       f"(limit {LIMITS['authors']})")
    return joined or None
