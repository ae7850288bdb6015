"""What the warehouse says about the papers a picks import names: in which venue each is an
accepted paper, its category when ranked, why it is not ranked otherwise.

Only the papers the files and the seed name are read (marts.paper_rankings and
marts.excluded_papers, read-only), so an import costs the same on a venue of 1,000 papers as
on a warehouse of a million.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from paperrank.core.errors import PaperrankError


@dataclass
class Papers:
    """The named papers: (venue, paper_id) -> category of the ranked ones, -> reason of the
    accepted ones that are not ranked; each paper id's venues; every venue of the warehouse."""

    ranked: dict[tuple[str, str], str] = field(default_factory=dict)
    excluded: dict[tuple[str, str], str] = field(default_factory=dict)
    venues_of: dict[str, list[str]] = field(default_factory=dict)
    venues: set[str] = field(default_factory=set)

    def venue_of(self, paper_id: str, where: str) -> tuple[str | None, str | None]:
        """(venue, None) for a paper of exactly one venue; (None, why not) otherwise: a line of
        `where` (a file, a seed) without a venue column is filed under its paper's venue, and
        only when that is sure."""
        venues = self.venues_of.get(paper_id, [])
        if len(venues) == 1:
            return venues[0], None
        if not venues:
            return None, f"unknown paper {paper_id!r}: not an accepted paper of the warehouse"
        return None, (f"paper {paper_id} is an accepted paper of {len(venues)} venues "
                      f"({', '.join(sorted(venues))}), and the {where} has no venue column to "
                      "say which one is meant")

    def problem(self, venue: str, paper_id: str, category: str) -> str | None:
        """Why (venue, paper_id, category) cannot be a pick, or None when it can."""
        key = (venue, paper_id)
        if key in self.ranked:
            if self.ranked[key] != category:
                return f"paper {paper_id} is ranked in {self.ranked[key]!r}, not {category!r}"
            return None
        if key in self.excluded:
            return f"paper {paper_id} is not ranked: {self.excluded[key]}"
        if venue not in self.venues:
            return (f"venue {venue!r} is not in the warehouse (it has "
                    f"{', '.join(repr(v) for v in sorted(self.venues)) or 'no venue'})")
        elsewhere = self.venues_of.get(paper_id)
        if elsewhere:
            return (f"paper {paper_id} is not an accepted paper of {venue!r} "
                    f"(it is one of {', '.join(repr(v) for v in sorted(elsewhere))})")
        return f"unknown paper {paper_id!r}: not an accepted paper of {venue!r}"


def read_papers(db: Path, paper_ids: Iterable[str]) -> Papers:
    """What `db` says about `paper_ids` (and which venues it has), read-only."""
    if not db.exists():
        raise PaperrankError(f"no warehouse at {db}: pass --db PATH to the warehouse the "
                             "experts' report was made from (built by `make rank`)")
    try:
        con = duckdb.connect(str(db), read_only=True)
    except duckdb.Error as error:
        raise PaperrankError(f"cannot open {db} read-only: {error}") from None
    ids = sorted(set(paper_ids))
    papers = Papers()
    try:
        papers.venues = {str(v) for (v,) in con.execute(
            "select venue from marts.paper_rankings union "
            "select venue from marts.excluded_papers").fetchall() if v is not None}
        for venue, paper_id, category in con.execute(
                "select venue, paper_id, category from marts.paper_rankings "
                "where paper_id in (select unnest(?::varchar[]))", [ids]).fetchall():
            papers.ranked[(str(venue), str(paper_id))] = str(category)
        for venue, paper_id, detail in con.execute(
                "select venue, paper_id, coalesce(exclusion_detail, exclusion_reason) "
                "from marts.excluded_papers "
                "where paper_id in (select unnest(?::varchar[]))", [ids]).fetchall():
            papers.excluded[(str(venue), str(paper_id))] = str(detail)
    except duckdb.CatalogException:
        raise PaperrankError(f"{db} has no marts.paper_rankings / marts.excluded_papers: "
                             "run `make rank` (dbt build) on it first") from None
    finally:
        con.close()
    for venue, paper_id in [*papers.ranked, *papers.excluded]:
        papers.venues_of.setdefault(paper_id, []).append(venue)
    return papers
