"""A venue's accepted papers as the text method reads them, and each paper's text hash.

The text is title, abstract and the authors' keywords.  Its md5 is the paper's cache key and
what dbt compares with the raw layer to find a stale computation
(tests/singular/related_inputs_current.sql computes the same hash in SQL:
`md5(coalesce(title, '') || chr(10) || coalesce(abstract, '') || chr(10) || keywords joined by
chr(10))`), so the two must build the same string.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import duckdb

SEPARATOR = "\n"


@dataclass(frozen=True)
class Corpus:
    """One venue's accepted papers, ordered by paper id (the tie-break everywhere)."""

    venue: str
    paper_ids: list[str]
    texts: list[str]
    hashes: list[str]

    def __len__(self) -> int:
        return len(self.paper_ids)

    def key(self) -> str:
        """The whole corpus's hash: every paper id with its text hash, in paper id order."""
        digest = hashlib.sha256()
        for paper_id, text_hash in zip(self.paper_ids, self.hashes, strict=True):
            digest.update(f"{paper_id}\t{text_hash}\n".encode())
        return digest.hexdigest()[:32]


def paper_text(title: str | None, abstract: str | None, keywords: Sequence[str | None] | None) -> str:
    """The text that is hashed and vectorised: title, abstract, keywords, one per line."""
    words = SEPARATOR.join(k for k in (keywords or []) if k is not None)
    return SEPARATOR.join((title or "", abstract or "", words))


def text_hash(text: str) -> str:
    return hashlib.md5(text.encode("utf-8")).hexdigest()


def venues(con: duckdb.DuckDBPyConnection, venue: str | None = None) -> list[str]:
    """The venues with accepted papers (only `venue`, when it has any)."""
    rows = con.execute("select distinct venue from raw.papers where is_accepted "
                       "and ($venue is null or venue = $venue) order by venue",
                       {"venue": venue}).fetchall()
    return [r[0] for r in rows]


def load(con: duckdb.DuckDBPyConnection, venue: str) -> Corpus:
    """The venue's accepted papers from the raw layer."""
    rows = con.execute(
        "select paper_id, title, abstract, keywords from raw.papers "
        "where is_accepted and venue = ? order by paper_id", [venue]).fetchall()
    texts = [paper_text(title, abstract, keywords) for _, title, abstract, keywords in rows]
    return Corpus(venue, [r[0] for r in rows], texts, [text_hash(t) for t in texts])
