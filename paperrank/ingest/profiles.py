"""Per-venue review-form profiles: which form field feeds which signal, on which scale.

Review forms change by venue and year, so the mapping is data (`seeds/review_form_profiles.csv`,
also a dbt seed that tests use) rather than code.  A profile row with an empty `form_field`
records that the venue's form lacks that signal: loaders leave it empty and say so.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

from paperrank.core.errors import PaperrankError
from paperrank.core.loads import Batch
from paperrank.core.schema import SIGNALS
from paperrank.core.seeds import SEEDS, read_seed

PROFILES_SEED = "review_form_profiles"
_LEADING_NUMBER = re.compile(r"^\s*([-+]?\d+(?:\.\d+)?)(?=$|[\s:;,.)\-–—])")


@dataclass(frozen=True)
class FieldSpec:
    """One signal of one venue's form: the field holding it and its scale."""

    signal: str
    form_field: str | None
    scale_min: float | None
    scale_max: float | None
    allowed_values: frozenset[float] | None

    def describe_scale(self) -> str:
        if self.allowed_values:
            return "{" + ",".join(_fmt(v) for v in sorted(self.allowed_values)) + "}"
        return f"{_fmt(self.scale_min)}..{_fmt(self.scale_max)}"


@dataclass(frozen=True)
class Profile:
    """A venue's review form, keyed by signal."""

    name: str
    venue_id_pattern: str
    fields: dict[str, FieldSpec]

    def missing_signals(self) -> list[str]:
        """Signals the method needs that this venue's form does not collect."""
        return [s for s in SIGNALS if s not in self.fields or not self.fields[s].form_field]


def _fmt(value: float | None) -> str:
    if value is None:
        return "?"
    return str(int(value)) if float(value).is_integer() else str(value)


def load_profiles(path: Path | None = None) -> dict[str, Profile]:
    """Read every profile from the seed file (or another file of its shape)."""
    rows: dict[str, list[dict[str, str]]] = {}
    for row in read_seed(PROFILES_SEED, path):
        rows.setdefault(row["profile"], []).append(row)
    profiles = {}
    for name, entries in rows.items():
        fields = {}
        for row in entries:
            allowed = row.get("allowed_values") or ""
            fields[row["signal"]] = FieldSpec(
                signal=row["signal"],
                form_field=row["form_field"] or None,
                scale_min=float(row["scale_min"]) if row["scale_min"] else None,
                scale_max=float(row["scale_max"]) if row["scale_max"] else None,
                allowed_values=frozenset(float(v) for v in allowed.split(";")) if allowed else None,
            )
        profiles[name] = Profile(name, entries[0]["venue_id_pattern"], fields)
    return profiles


def resolve_profile(venue: str, explicit: str | None = None, path: Path | None = None) -> Profile:
    """Find the profile for a venue: by explicit name, by the venue name squashed to
    letters and digits ("ICLR 2026" -> iclr2026), or by the OpenReview venue-id pattern."""
    profiles = load_profiles(path)
    if explicit:
        if explicit not in profiles:
            raise PaperrankError(
                f"unknown review-form profile {explicit!r}; known: {', '.join(sorted(profiles))}"
            )
        return profiles[explicit]
    squashed = re.sub(r"[^a-z0-9]", "", venue.lower())
    if squashed in profiles:
        return profiles[squashed]
    for profile in profiles.values():
        if fnmatchcase(venue, profile.venue_id_pattern.replace("%", "*")):
            return profile
    raise PaperrankError(
        f"no review-form profile matches venue {venue!r}; pass --profile with one of: "
        f"{', '.join(sorted(profiles))} (or add one to {(path or SEEDS / PROFILES_SEED).name}.csv)"
    )


OUT_OF_SCALE = "out of scale"
UNPARSABLE = "unparsable score"


class BadScore(PaperrankError):
    """A reviewer score that does not parse or lies off the form's scale; `kind` is one of
    OUT_OF_SCALE and UNPARSABLE, the start of the rejection's reason."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def parse_score(value: object, spec: FieldSpec) -> float | None:
    """Parse one reviewer score such as 8, "8", "8: accept, good paper" or "3 good".

    Returns None for an empty value; raises BadScore with a readable reason for a value
    that does not parse, is not finite (NaN, inf) or lies outside the form's scale.
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, dict) and "value" in value:
        return parse_score(value["value"], spec)
    if isinstance(value, bool):
        raise BadScore(UNPARSABLE, f"not a score: {value!r}")
    if isinstance(value, (int, float)):
        number = float(value)
    elif isinstance(value, str):
        match = _LEADING_NUMBER.match(value)
        if not match:
            raise BadScore(UNPARSABLE, f"not a score: {value[:80]!r}")
        number = float(match.group(1))
    else:
        raise BadScore(UNPARSABLE, f"not a score: {type(value).__name__} {str(value)[:80]!r}")
    if math.isnan(number) or math.isinf(number):
        raise BadScore(UNPARSABLE, f"not a finite score: {value!r}")
    if spec.allowed_values is not None and number not in spec.allowed_values:
        raise BadScore(OUT_OF_SCALE, f"{_fmt(number)} is outside the scale {spec.describe_scale()}")
    if (spec.scale_min is not None and number < spec.scale_min) or (
        spec.scale_max is not None and number > spec.scale_max
    ):
        raise BadScore(OUT_OF_SCALE, f"{_fmt(number)} is outside the scale {spec.describe_scale()}")
    return number


def check_form_signals(profile: Profile, batch: Batch, venue: str, expected: int = 0) -> None:
    """Fail the load when a signal the venue's form has is missing from every review.

    A file without a `rating` column, or whose ratings are all empty, would otherwise load
    reviews that rank on the remaining signals with every check green.  A signal the form
    lacks (an empty `form_field` in the profile) is expected to stay empty.  `expected` is
    how many records had reviews when the batch holds none because the column is missing.
    """
    if not batch.reviews and not expected:
        return
    for signal, spec in profile.fields.items():
        if not spec.form_field:
            continue
        if all(review.get(signal) is None for review in batch.reviews):
            raise PaperrankError(
                f"missing signal: none of the {len(batch.reviews) or expected} reviewed papers "
                f"or reviews of {venue} in "
                f"{batch.source} has a {signal} (form field {spec.form_field!r} of profile "
                f"{profile.name}); the ranking needs it. Check the file's columns, or pass the "
                "--profile whose form matches it"
            )
