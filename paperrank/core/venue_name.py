"""A venue's name as every door accepts it: not empty and not only whitespace.

A blank name cannot be told apart from "no venue given" (`--venue ""`, VENUE=), so a blank
venue that was ranked and published could never be named again to export or roll back; every
door (ingest, rank, publish, export, rollback) refuses it in one line instead.
"""
from paperrank.core.errors import PaperrankError


def check(name: str, where: str) -> str:
    """`name` unchanged, or PaperrankError naming `where` it came from if it is blank."""
    if not name.strip():
        raise PaperrankError(f"venue {name!r} ({where}) is blank: a venue needs a name that is "
                             "not empty and not only whitespace")
    return name
