"""Each venue's publication history, beside the published warehouse's versions.

The published warehouse holds every venue's latest audited build (`paperrank.publish.publication`).
To bring one venue's previous build back, the project must know which kept publication holds
it: `.paperrank-venues.json` in `<published>.versions/` lists, per venue, its published builds,
oldest first, each with the version file it was first published in. Publishing pushes; a
rollback pops (so a build withdrawn by a rollback is never brought back by the next one) and
records the new publication as the holder of the build it restored. Pruning keeps the files
these entries name (`versions.pinned`), so every venue's previous build survives other venues'
publications.
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb

from paperrank.core.errors import PaperrankError
from paperrank.publish import versions

HISTORY = versions.VENUE_HISTORY


def _read(published: Path) -> dict[str, list[dict[str, str]]]:
    try:
        data = json.loads((versions.versions_dir(published) / HISTORY).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {venue: [e for e in entries if isinstance(e, dict) and {"build_id", "version"} <= e.keys()]
            for venue, entries in data.items() if isinstance(venue, str) and isinstance(entries, list)}


def _write(published: Path, history: dict[str, list[dict[str, str]]]) -> None:
    versions._write_json(versions.versions_dir(published) / HISTORY, history)


def published(link: Path, builds: dict[str, str], version: str) -> None:
    """Record that `version` published `builds` (venue -> build id)."""
    history = _read(link)
    for venue, build_id in builds.items():
        history.setdefault(venue, []).append({"build_id": build_id, "version": version})
    _write(link, history)


def rolled_back(link: Path, venue: str, version: str) -> None:
    """Record that `venue`'s last build was withdrawn and `version` now holds the one before."""
    history = _read(link)
    entries = history.get(venue, [])[:-1]
    if entries:
        entries[-1] = {**entries[-1], "version": version}
    history[venue] = entries
    _write(link, history)


def previous(link: Path, venue: str) -> tuple[str, str, Path]:
    """`venue`'s current and previous build ids and the kept publication that holds the
    previous one; PaperrankError when there is none."""
    entries = _read(link).get(venue, [])
    if len(entries) < 2:
        raise PaperrankError(f"venue {venue!r} has no earlier publication in {link} to roll back to "
                             f"({len(entries)} kept)")
    holder = versions.versions_dir(link) / entries[-2]["version"]
    if not versions.well_formed(holder):
        raise PaperrankError(f"the publication holding {venue!r}'s previous build ({holder.name}) "
                             "is no longer kept; nothing was switched")
    return entries[-1]["build_id"], entries[-2]["build_id"], holder


def builds(link: Path) -> dict[str, list[str]]:
    """Each venue's published build ids, oldest first (what its rollbacks walk back)."""
    return {venue: [entry["build_id"] for entry in entries] for venue, entries in sorted(_read(link).items())}


def builds_in(publication: Path) -> dict[str, str]:
    """Each venue's build id in a publication file (marts.build_settings); empty when it has
    none to read."""
    con = duckdb.connect(str(publication), read_only=True)
    try:
        return dict(con.execute("select venue, min(build_id) from marts.build_settings "
                                "group by venue").fetchall())
    except duckdb.Error:
        return {}
    finally:
        con.close()


def venues_of(publication: Path) -> list[str]:
    """The venues a publication file holds (marts.build_settings)."""
    return sorted(builds_in(publication))


def one_venue(publication: Path, venue: str | None, doing: str = "roll back") -> str:
    """`venue`, checked to be published; or, when not given, the one venue published."""
    held = venues_of(publication)
    if venue is None:
        if len(held) != 1:
            raise PaperrankError(f"the published warehouse holds {len(held)} venues "
                                 f"({', '.join(held) or 'none'}); say which to {doing} (VENUE=..., --venue)")
        return held[0]
    if venue not in held:
        raise PaperrankError(f"venue {venue!r} is not published; published venues: {', '.join(held) or 'none'}")
    return venue
