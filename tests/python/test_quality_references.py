"""What the raw suites hold scores and areas to: profile resolution and the seed lists."""

from __future__ import annotations

import pandas as pd
import pytest

from paperrank.quality.references import (
    UNION,
    known_primary_areas,
    ranked_categories,
    venue_family,
    venue_scales,
)

ICLR_2026_AREAS = 21


def test_venue_resolves_to_its_profile() -> None:
    [scales] = venue_scales(["ICLR 2026"])
    assert scales.source == "profile iclr2026" and scales.warning is None
    assert scales.fields["rating"].allowed_values == frozenset({0, 2, 4, 6, 8, 10})


def test_unknown_venue_falls_back_to_union_with_warning() -> None:
    [scales] = venue_scales(["SYNTH 2026"])
    assert scales.source == UNION and "--profile" in (scales.warning or "")
    assert (scales.fields["rating"].scale_min, scales.fields["rating"].scale_max) == (0, 10)


def test_unknown_explicit_profile_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown review-form profile"):
        venue_scales(["ICLR 2026"], "iclr2099")


def test_known_areas_cover_iclr_2026_and_the_synthetic_venue() -> None:
    from paperrank.ingest.synthetic import DATASETS_AREA, THEMES

    areas = known_primary_areas()
    assert len(areas["iclr"]) == ICLR_2026_AREAS == len(set(areas["iclr"]))
    synthetic = {area for theme in THEMES.values() for area in theme[1]} | {DATASETS_AREA}
    assert set(areas[venue_family("SYNTH 2026")]) == synthetic <= set(areas["iclr"])


def test_known_areas_match_the_real_iclr_2026_data() -> None:
    from project import ICLR, require_shared

    papers = pd.read_parquet(require_shared(ICLR / "accepted_papers.parquet"),
                             columns=["primary_area"])
    assert set(papers["primary_area"].dropna()) == set(known_primary_areas()["iclr"])


def test_ranked_categories_and_unknown_taxonomy() -> None:
    assert "Other" not in ranked_categories("icml2026")
    assert "Agentic AI" in ranked_categories("icml2026")
    with pytest.raises(ValueError, match="unknown taxonomy"):
        ranked_categories("nope")
