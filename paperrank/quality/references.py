"""What the data is checked against: review-form scales, known primary areas, taxonomies.

All three come from the seed files, through the loaders' own readers, rather than the
warehouse, because the raw checks run before `dbt build` has loaded any seed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from paperrank.core.errors import PaperrankError
from paperrank.core.schema import SIGNALS
from paperrank.core.seeds import read_seed
from paperrank.core.taxonomy import load_taxonomy
from paperrank.ingest.profiles import FieldSpec, load_profiles, resolve_profile

UNION = "union of known scales"


@dataclass(frozen=True)
class VenueScales:
    """The score scales one venue's reviews must respect, and where they came from."""

    venue: str
    source: str  # "profile <name>", or UNION when no profile matched
    fields: dict[str, FieldSpec]
    warning: str | None = None


def venue_scales(venues: list[str], explicit: str | None = None) -> list[VenueScales]:
    """Resolve each venue's review-form profile (`explicit` wins for every venue).

    A venue no profile matches is still checked, against the union of all known scales,
    so an out-of-range score such as 99 is caught even before someone adds its profile;
    the warning says the check is looser than it should be.  An unknown `explicit` profile
    raises ValueError: a typo must not silently loosen the gate.
    """
    result = []
    for venue in venues:
        try:
            profile = resolve_profile(venue, explicit)
        except PaperrankError as error:
            if explicit:
                raise
            result.append(VenueScales(
                venue, UNION, _union_fields(),
                f"{error}; checked against the {UNION} instead",
            ))
            continue
        result.append(VenueScales(venue, f"profile {profile.name}", profile.fields))
    return result


def _union_fields() -> dict[str, FieldSpec]:
    """Widest range of every signal over all profiles (gaps in a scale are not kept)."""
    fields = {}
    for signal in SIGNALS:
        specs = [p.fields[signal] for p in load_profiles().values()
                 if signal in p.fields and p.fields[signal].scale_min is not None]
        fields[signal] = FieldSpec(
            signal=signal,
            form_field=signal,
            scale_min=min(s.scale_min for s in specs if s.scale_min is not None),
            scale_max=max(s.scale_max for s in specs if s.scale_max is not None),
            allowed_values=None,
        )
    return fields


def venue_family(venue: str) -> str:
    """The key of a venue in known_primary_areas.csv: its leading word ("ICLR 2026" -> iclr)."""
    match = re.match(r"[A-Za-z]+", venue.strip())
    return match.group(0).lower() if match else venue.strip().lower()


def known_primary_areas(path: Path | None = None) -> dict[str, list[str]]:
    """Known primary areas per venue family, in file order."""
    areas: dict[str, list[str]] = {}
    for row in read_seed("known_primary_areas", path):
        areas.setdefault(row["venue_family"], []).append(row["primary_area"])
    return areas


def ranked_categories(taxonomy: str) -> list[str]:
    """Categories of the taxonomy that get a ranked list; ValueError for an unknown taxonomy."""
    return [c.name for c in load_taxonomy(taxonomy).categories if c.is_ranked]
