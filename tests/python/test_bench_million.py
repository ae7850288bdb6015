"""The 1M benchmark's rank comparison (bench.million.compare_ranks) and its size parsing: what
it reports as equal, as a near-tie swap and as a difference. Small frames, no warehouse."""

from __future__ import annotations

import pandas as pd
import pytest

from bench.million import compare_ranks, parse_size, upstream_models


def ranking(rows: list[tuple[str, str, int, float]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["paper_id", "category", "category_rank",
                                       "local_top_overall"])


EXPECTED = ranking([("a", "X", 1, 2.0), ("b", "X", 2, 1.0), ("c", "X", 3, 0.5),
                    ("d", "Y", 1, 0.0)])


def test_the_same_ranking_is_equal_and_reports_its_largest_composite_gap() -> None:
    actual = EXPECTED.assign(local_top_overall=EXPECTED["local_top_overall"] + 3e-13)
    result = compare_ranks(EXPECTED, actual)
    assert result.equal and result.papers == 4 and result.near_ties == 0
    assert result.max_composite_difference == pytest.approx(3e-13, rel=1e-3)
    assert str(result).startswith("ranks equal (4 papers)")


def test_a_swapped_rank_is_a_difference() -> None:
    actual = EXPECTED.copy()
    actual.loc[[0, 1], "category_rank"] = [2, 1]
    result = compare_ranks(EXPECTED, actual)
    assert not result.equal
    assert any("another rank" in p for p in result.problems)
    assert str(result).startswith("RANKS DIFFER")


def test_a_swap_among_equal_composites_is_a_near_tie_not_a_difference() -> None:
    tied = ranking([("a", "X", 1, 1.0), ("b", "X", 2, 1.0 + 1e-13)])
    swapped = tied.assign(category_rank=[2, 1])
    result = compare_ranks(tied, swapped)
    assert result.equal and result.near_ties == 2


def test_a_composite_off_by_more_than_the_tolerance_is_a_difference() -> None:
    actual = EXPECTED.assign(local_top_overall=EXPECTED["local_top_overall"] + 1e-6)
    result = compare_ranks(EXPECTED, actual)
    assert not result.equal and result.max_composite_difference == pytest.approx(1e-6)


def test_a_paper_ranked_by_one_side_only_is_a_difference() -> None:
    assert not compare_ranks(EXPECTED, EXPECTED.iloc[:3]).equal


@pytest.mark.parametrize(("text", "papers"), [("10k", 10_000), ("100K", 100_000),
                                              ("1M", 1_000_000), ("2500", 2_500)])
def test_sizes(text: str, papers: int) -> None:
    assert parse_size(text) == papers


@pytest.mark.parametrize("text", ["", "m", "1.5M", "-3", "0"])
def test_a_size_that_is_no_whole_number_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="whole number of papers"):
        parse_size(text)


def test_the_ranking_path_is_the_mart_and_every_model_above_it() -> None:
    manifest = {"parent_map": {
        "model.p.mart": ["model.p.ranked", "seed.p.weights"],
        "model.p.ranked": ["model.p.stg", "model.p.other_stg"],
        "model.p.stg": ["source.p.raw.papers"],
        "model.p.other_stg": [],
        "model.p.unrelated": ["model.p.stg"],
    }}
    assert upstream_models(manifest, "model.p.mart") == ["mart", "other_stg", "ranked", "stg"]
