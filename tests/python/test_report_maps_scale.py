"""A map of a large venue (paperrank/report/maps.py's MAX_DOTS): at most that many dots, the top N
always among them and the others evenly spread, the same on every build, the colours and the text
alternative still counting every paper, and the map's name saying how many it draws.  A map under
the bound is drawn whole (ICLR 2026's page: test_report_map.py and the page size budget)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pandas as pd
from test_report_maps import SVG

from paperrank.report import maps, sections
from paperrank.report.marts import VenueMarts

PAPERS = 50


def _points() -> pd.DataFrame:
    ids = [f"p{i:03d}" for i in range(PAPERS)]
    return pd.DataFrame({
        "venue": "V", "map_category": None, "paper_id": ids,
        "x": [(i * 7 % PAPERS) / PAPERS for i in range(PAPERS)],
        "y": [(i * 11 % PAPERS) / PAPERS for i in range(PAPERS)],
        "category": ["A" if i % 5 else "B" for i in range(PAPERS)],
        "subtheme": ["s1" if i % 5 else "s2" for i in range(PAPERS)],
        "subtheme_label": ["one" if i % 5 else "two" for i in range(PAPERS)],
    })


def _parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg.replace("<svg ", f'<svg xmlns="{SVG[1:-1]}" ', 1))


def test_a_map_under_the_bound_draws_every_paper():
    placed = maps.dots(_points(), "subtheme", "subtheme_label")
    assert maps.drawn(placed, {"p001"}) is placed
    root = _parsed(str(maps.category_svg(placed, {"p001": "#1 one"}, "map")))
    assert len(list(root.iter(f"{SVG}circle"))) == PAPERS


def test_a_map_over_the_bound_draws_the_top_n_and_an_even_sample(monkeypatch):
    monkeypatch.setattr(maps, "MAX_DOTS", 20)
    placed = maps.dots(_points(), "subtheme", "subtheme_label")
    titles = {"p049": "#1 last", "p013": "#2 odd"}
    svg = str(maps.category_svg(placed, titles, "map"))
    root = _parsed(svg)
    drawn = [c.get("data-p") for c in root.iter(f"{SVG}circle")]
    assert len(drawn) == 20 and len(set(drawn)) == 20
    assert {"p049", "p013"} <= set(drawn)  # the top N always
    # the others evenly spread over the papers in id order: no gap much wider than 50 / 18
    numbers = sorted(int(p[1:]) for p in set(drawn) - set(titles))
    assert numbers[0] == 0 and max(b - a for a, b in zip(numbers, numbers[1:], strict=False)) <= 4
    assert svg == str(maps.category_svg(placed, titles, "map"))  # the same on every build
    # the colours and the text alternative count every paper, drawn or not
    assert [(g.key, g.count) for g in maps.groups(placed)] == [("s1", 40), ("s2", 10)]
    assert "one: 40 papers" in str(maps.category_text(placed, [], 2))
    venue = _parsed(str(maps.venue_svg(maps.dots(_points(), "category", "category"), "venue", {"A"})))
    assert sum(p.get("d").count("h0") for p in venue.iter(f"{SVG}path")) <= 20


def test_the_venue_map_says_how_many_papers_it_draws(monkeypatch):
    data = VenueMarts(venue="V", rankings=pd.DataFrame(), summary=pd.DataFrame(),
                      excluded=pd.DataFrame(), signals=[], map_positions=_points())
    whole = sections.venue_map(data, [])
    assert whole is not None and (whole.papers, whole.shown) == (PAPERS, PAPERS)
    assert _parsed(str(whole.svg)).get("aria-label") == "Map of V's 50 papers, coloured by category"
    monkeypatch.setattr(maps, "MAX_DOTS", 20)
    bounded = sections.venue_map(data, [])
    assert bounded is not None and (bounded.papers, bounded.shown) == (PAPERS, 20)
    assert _parsed(str(bounded.svg)).get("aria-label") == \
        "Map of V's 50 papers (20 of them drawn), coloured by category"
