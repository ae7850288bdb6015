"""The page's map drawing (paperrank/report/maps.py): hostile titles stay text, the top N are
ringed, the text alternative names every group, near-duplicate picks are found both ways only."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pandas as pd
from hostile_venue import HOSTILE_TITLE, LOW_TITLE

from paperrank.report import maps

SVG = "{http://www.w3.org/2000/svg}"


def _points() -> pd.DataFrame:
    return pd.DataFrame({
        "paper_id": ["a", "b", "c", "d"],
        "x": [0.0, 0.25, 0.5, 1.0],
        "y": [1.0, 0.5, 0.25, 0.0],
        "subtheme": ["s1", "s1", "s2", None],
        "subtheme_label": ["<b>one</b> & co", "<b>one</b> & co", "two", None],
    })


def test_hostile_titles_stay_text_and_the_top_n_are_ringed() -> None:
    titles = {"a": HOSTILE_TITLE, "b": LOW_TITLE, "c": "plain", "d": "plain too"}
    svg = str(maps.map_svg(_points(), titles, {"a", "c"}, "subtheme", "subtheme_label",
                           '<script>x</script> map')).replace("<svg ", f'<svg xmlns="{SVG[1:-1]}" ', 1)
    root = ET.fromstring(svg)  # well-formed: an unescaped title would break it or add elements
    tags = {el.tag.removeprefix(SVG) for el in root.iter()}
    assert tags == {"svg", "g", "title", "circle"}
    shown = [el.text for el in root.iter(f"{SVG}title")]
    assert HOSTILE_TITLE in shown and LOW_TITLE in shown
    rings = [g.get("data-paper") for g in root.iter(f"{SVG}g") if g.find(f"{SVG}circle[@class='map-ring']") is not None]
    assert rings == ["a", "c"]
    assert all(g.get("tabindex") == "0" for g in root.iter(f"{SVG}g"))


def test_text_alternative_lists_groups_with_counts_and_top_papers() -> None:
    text = str(maps.map_text(_points(), {"a": HOSTILE_TITLE}, ["a"], "subtheme", "subtheme_label"))
    assert "<script>" not in text and "&lt;b&gt;one&lt;/b&gt; &amp; co: 2 papers" in text
    assert "two: 1 papers" in text


def test_near_duplicates_need_both_directions_above_the_threshold() -> None:
    related = pd.DataFrame({"paper_id": ["a", "b", "a", "c"],
                            "related_paper_id": ["b", "a", "c", "d"],
                            "similarity": [0.9, 0.8, 0.95, 0.99]})
    assert maps.near_duplicates(related, ["a", "b", "c"], 0.7) == [("a", "b")]
    assert maps.near_duplicates(related, ["a", "b", "c"], 0.85) == []
    assert maps.coverage(["a", "b", "c"], {"a": "s1", "b": "s1", "c": "s2"}, 3) == (2, 3)
