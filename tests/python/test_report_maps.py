"""The page's map drawing (paperrank/report/maps.py): hostile titles stay text, the top N are
ringed, focusable and titled, the text alternative names every group with its top N, the venue's
map draws every paper, near-duplicate pairs are found both ways only, and the setting is checked."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pandas as pd
import pytest
from hostile_venue import HOSTILE_TITLE

from paperrank.core.errors import PaperrankError
from paperrank.report import maps
from paperrank.report.duplicates import check_near_duplicate, parse_near_duplicate

SVG = "{http://www.w3.org/2000/svg}"
SCRIPT_TITLE = "</script><script>alert(1)</script> and <img src=x onerror=alert(1)>"


def _points() -> pd.DataFrame:
    return pd.DataFrame({
        "paper_id": ["a", "b", "c", "d"],
        "x": [0.0, 0.25, 0.5, 1.0],
        "y": [1.0, 0.5, 0.25, 0.0],
        "category": ["Cat <1>", "Cat <1>", "Two", None],
        "subtheme": ["s1", "s1", "s2", None],
        "subtheme_label": ["<b>one</b> & co", "<b>one</b> & co", "two", None],
    })


def _themes(points: pd.DataFrame) -> list[maps.Dot]:
    return maps.dots(points, "subtheme", "subtheme_label")


def _parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg.replace("<svg ", f'<svg xmlns="{SVG[1:-1]}" ', 1))


def test_hostile_titles_stay_text_and_the_top_n_are_ringed() -> None:
    titles = {"a": HOSTILE_TITLE, "c": SCRIPT_TITLE}
    svg = str(maps.category_svg(_themes(_points()), titles, '<script>x</script> map'))
    root = _parsed(svg)  # well-formed: an unescaped title would break it or add elements
    assert {el.tag.removeprefix(SVG) for el in root.iter()} == {"svg", "g", "title", "circle"}
    assert [el.text for el in root.iter(f"{SVG}title")] == [HOSTILE_TITLE, SCRIPT_TITLE]
    assert root.get("aria-label") == "<script>x</script> map"
    ringed = [c.get("data-p") for g in root.iter(f"{SVG}g") if g.get("class") == "t"
              for c in g.iter(f"{SVG}circle")]
    assert ringed == ["a", "c"]
    dots = {c.get("data-p"): c for c in root.iter(f"{SVG}circle")}
    assert sorted(dots) == ["a", "b", "c", "d"]
    assert [p for p, c in dots.items() if c.get("tabindex") == "0"] == ["a", "c"]
    # each dot's group carries its sub-theme and colour; the paper without one is grey
    theme = {c.get("data-p"): g.get("data-s") for g in root.iter(f"{SVG}g") for c in g}
    assert theme == {"a": "s1", "b": "s1", "c": "s2", "d": ""}
    assert "<script>" not in svg and "<img" not in svg


def test_the_venue_map_draws_every_paper_once_per_spot() -> None:
    points = pd.concat([_points(), _points().assign(paper_id=["e", "f", "g", "h"], x=[0.1, 0.2, 0.3, 1.0],
                                                    y=[0.9, 0.8, 0.7, 0.0])])
    root = _parsed(str(maps.venue_svg(maps.dots(points, "category", "category"), "venue", {"Two"})))
    paths = list(root.iter(f"{SVG}path"))
    # the grey first (no category, then the categories not ranked), the ranked ones above
    assert [p.find(f"{SVG}title").text for p in paths] == ["no category", "Cat <1>", "Two"]
    assert [p.get("stroke") for p in paths] == [maps.OTHER, maps.OTHER, maps.PALETTE[0]]
    # a dot a zero-length segment: 4 + 2 + 1 spots (d and h, both without a category, share one)
    assert sum(p.get("d").count("h0") for p in paths) == 7
    starts = [re.match(r"M(\d+) (\d+)h0", p.get("d")) for p in paths]
    assert all(starts)


def test_text_alternative_lists_groups_with_counts_and_top_papers() -> None:
    text = str(maps.category_text(_themes(_points()), [("c", "p-c", 1, SCRIPT_TITLE), ("a", "p-a", 2, "A")], 30))
    assert "<script>" not in text and "<img" not in text
    assert "&lt;b&gt;one&lt;/b&gt; &amp; co: 2 papers; top 30: " in text
    assert 'href="#p-a" title="A">#2</a>' in text and "two: 1 paper; top 30: " in text
    venue = str(maps.venue_text(maps.dots(_points(), "category", "category"), {"Two": "cat-two"}))
    assert "Cat &lt;1&gt; (not ranked): 2 papers" in venue and '<a href="#cat-two">Two</a>: 1 paper' in venue


def test_near_duplicates_need_both_directions_above_the_threshold() -> None:
    related = pd.DataFrame({"paper_id": ["a", "b", "a", "c", "c", "d"],
                            "related_paper_id": ["b", "a", "c", "d", "a", "c"],
                            "similarity": [0.9, 0.8, 0.95, 0.99, 0.3, 0.99]})
    assert maps.near_duplicates(related, {"a", "b", "c"}, 0.7) == [("a", "b", 0.8)]
    assert maps.near_duplicates(related, {"a", "b", "c"}, 0.85) == []
    assert maps.near_duplicates(related, {"a", "b", "c", "d"}, 0.7) == [("a", "b", 0.8), ("c", "d", 0.99)]
    assert maps.near_pairs_json([("a", "b", 0.81234)]) == '[["a","b",0.812]]'


@pytest.mark.parametrize("bad", [0, 0.0, -0.1, 1.01, float("nan"), True, "0.5", None])
def test_the_near_duplicate_setting_is_a_number_in_0_to_1(bad: object) -> None:
    with pytest.raises(PaperrankError, match="near-duplicate similarity must be a number above 0"):
        check_near_duplicate(bad)
    assert check_near_duplicate(1) == 1.0 and check_near_duplicate(0.4) == 0.4


@pytest.mark.parametrize("bad", ["0", "1.5", "x", "", "nan", "-1"])
def test_the_near_duplicate_option_text_is_checked(bad: str) -> None:
    with pytest.raises(PaperrankError, match=f"got {re.escape(repr(bad))}"):
        parse_near_duplicate(bad)
    assert parse_near_duplicate(" 0.35 ") == 0.35
