"""The maps on the experts' page, driven in Debian's Chromium: a ticked pick fills its dot and an
unticked one empties it, a click or Enter on a dot brings its paper's row into view, the sub-theme
coverage follows the picks, two near-duplicate picks get a notice (never a block), hostile titles
in a map stay text, the maps fit a desktop's and a phone's width, and a build without the related
extra has no map and says so in one line.

The session's hostile venue (`hostile_built`, tests/python/hostile_venue.py: HOSTILE 2026's
shortlist carries hostile titles) with stand-ins of the related part's marts, maps included
(tests/python/report_marts.py: neighbouring ranks are each other's closest papers at similarity
0.5, two ranks apart 0.33; sub-themes by rank modulo 3).
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from browser import open_page
from hostile_venue import VENUE
from project import Project, warehouse_copy
from report_marts import EXTRAS, add_related_marts, keep_parts, split_parts
from report_pages import page as parsed
from report_pages import render_pages, text

pytestmark = pytest.mark.e2e  # the hostile venue is built by dbt

SVG_TAGS = {"svg", "g", "circle", "title", "path", "rect"}


@pytest.fixture(scope="module")
def related(hostile_built: Project, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """A copy of the hostile venue's build with every extra, the related part's marts stand-ins."""
    copy = warehouse_copy(hostile_built, tmp_path_factory.mktemp("report_map"))
    split_parts(copy.db)
    add_related_marts(copy.db, k=5)
    return copy


@pytest.fixture(scope="module")
def mapped(related: Project) -> Path:
    return render_pages(related.db, related.scratch / "report")[VENUE]


def clean(log) -> None:
    assert log.console == [] and log.page_errors == [] and log.dialogs == []


def ranked_ids(section) -> list[str]:
    return section.locator("tr[data-paper-id]").evaluate_all("rows => rows.map(r => r.dataset.paperId)")


def pick(section, paper_id: str, on: bool = True) -> None:
    box = section.locator(f"tr[data-paper-id='{paper_id}'] input.pick")
    box.check() if on else box.uncheck()


def test_picks_fill_their_dots_and_the_coverage_follows(mapped: Path) -> None:
    with open_page(mapped) as (page, log):
        section = page.locator("section.category").first
        ids = ranked_ids(section)
        dot = {p: section.locator(f".paper-map circle[data-p='{p}']") for p in ids[:4]}
        theme = {p: d.evaluate("c => c.parentNode.dataset.s") for p, d in dot.items()}
        assert len(set(theme.values())) == 3 and theme[ids[0]] == theme[ids[3]]  # ranks mod 3
        coverage = section.locator(".coverage")
        total = coverage.get_attribute("data-total")
        assert total == str(section.locator("button.subtheme").count()) == "3"

        def filled(paper: str) -> bool:
            opacity = dot[paper].evaluate("c => getComputedStyle(c).fillOpacity")
            assert ("picked" in (dot[paper].get_attribute("class") or "")) == (opacity == "1")
            return opacity == "1"

        assert coverage.text_content() == f"sub-themes covered: 0 of {total}"
        assert not any(filled(p) for p in ids[:4])
        picked: set[str] = set()
        for paper, on in ((ids[0], True), (ids[3], True), (ids[1], True), (ids[0], False), (ids[3], False)):
            pick(section, paper, on)
            picked = picked | {paper} if on else picked - {paper}
            assert [filled(p) for p in ids[:4]] == [p in picked for p in ids[:4]]
            covered = len({theme[p] for p in picked})
            assert coverage.text_content() == f"sub-themes covered: {covered} of {total}"
        # a reload keeps the picks: their dots are filled from the start
        page.reload()
        section = page.locator("section.category").first
        assert "picked" in section.locator(f".paper-map circle[data-p='{ids[1]}']").get_attribute("class")
        assert section.locator(".coverage").text_content() == f"sub-themes covered: 1 of {total}"
    clean(log)


def test_a_click_or_enter_on_a_dot_brings_its_row_into_view(mapped: Path) -> None:
    with open_page(mapped) as (page, log):
        section = page.locator("section.category").first
        ids = ranked_ids(section)
        height = page.viewport_size["height"]

        def in_view(paper: str) -> bool:
            top = page.locator(f"tr[data-paper-id='{paper}']").evaluate("r => r.getBoundingClientRect().top")
            return 0 <= top <= height

        def focused_row() -> str:
            return page.evaluate("document.activeElement.closest('tr') && "
                                 "document.activeElement.closest('tr').dataset.paperId")

        target = ids[len(ids) // 2 - 1]  # a top-N paper far down its list
        section.locator(f".paper-map circle[data-p='{target}']").click()
        assert in_view(target) and focused_row() == target
        # the keyboard: one tab stop a map, at its #1; an arrow moves to #2; Enter goes to its row
        assert section.locator(".paper-map circle[tabindex='0']").evaluate_all(
            "dots => dots.map(d => d.dataset.p)") == [ids[0]]
        other = ids[1]
        page.evaluate("window.scrollTo(0, 0)")
        assert not in_view(other)
        section.locator(f".paper-map circle[data-p='{ids[0]}']").focus()
        page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.dataset.p") == other
        page.keyboard.press("Enter")
        assert in_view(other) and focused_row() == other
        # a paper no list shows: its dot opens it among the search results, pickable there
        section.locator(".paper-map").scroll_into_view_if_needed()
        unlisted = section.locator(".paper-map circle[data-p]").evaluate_all(  # one no dot covers
            """(dots, listed) => dots.filter(d => !listed.includes(d.dataset.p)).filter(d => {
                   const box = d.getBoundingClientRect();
                   return document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2) === d;
               }).map(d => d.dataset.p)""", ids)
        assert unlisted
        section.locator(f".paper-map circle[data-p='{unlisted[0]}']").click()
        item = page.locator(f"#more-matches-list li[data-paper-id='{unlisted[0]}']")
        assert item.is_visible() and item.locator("input.pick").count() == 1
        item.locator("input.pick").check()
        assert "picked" in section.locator(f".paper-map circle[data-p='{unlisted[0]}']").get_attribute("class")
    clean(log)


def test_near_duplicate_picks_get_a_notice_not_a_block(mapped: Path) -> None:
    with open_page(mapped) as (page, log):
        section = page.locator("section.category").first
        ids = ranked_ids(section)
        title = {p: section.locator(f"tr[data-paper-id='{p}'] .title").text_content() for p in ids[:3]}
        note = section.locator(".near-note")
        pick(section, ids[0])
        pick(section, ids[2])  # two ranks apart: similarity 0.33, under the 0.4 default
        assert note.is_hidden()
        pick(section, ids[1])  # each other's closest papers of both, at 0.5
        assert note.is_visible()
        said = note.text_content()
        assert said.startswith("Near-duplicates among your picks: ")
        def named(a: str, b: str) -> bool:  # a pair is named lower id first
            a, b = sorted((a, b))
            return f"\u201c{title[a]}\u201d and \u201c{title[b]}\u201d (similarity 0.50)" in said

        assert named(ids[0], ids[1]) and named(ids[1], ids[2]) and not named(ids[0], ids[2])
        assert said.count("(similarity") == 2
        assert all(section.locator(f"tr[data-paper-id='{p}'] input.pick").is_checked() for p in ids[:3])
        category = section.get_attribute("data-category")
        assert page.locator(f".pick-count[data-category='{category}']").text_content() == "3"
        pick(section, ids[1], on=False)
        assert note.is_hidden() and note.text_content() == ""
    clean(log)


def test_the_near_duplicate_similarity_is_a_setting(related: Project, tmp_path: Path) -> None:
    path = render_pages(related.db, tmp_path / "report", near_duplicate=0.6)[VENUE]
    with open_page(path) as (page, log):
        section = page.locator("section.category").first
        ids = ranked_ids(section)
        pick(section, ids[0])
        pick(section, ids[1])  # 0.5: a near-duplicate at 0.4, not at 0.6
        assert section.locator(".near-note").is_hidden()
    clean(log)


def test_hostile_titles_in_a_map_stay_text(mapped: Path) -> None:
    doc = parsed(mapped)
    maps = doc.xpath("//*[local-name()='svg'][contains(@class, 'paper-map')]")
    assert len(maps) == 1 + len(doc.xpath("//section[contains(@class, 'category')]"))
    tags = {el.tag.split("}")[-1] for svg in maps for el in svg.iter()}
    assert tags <= SVG_TAGS, tags
    assert not doc.xpath("//*[contains(@class, 'map-block')]//*[local-name()='img' or local-name()='script']")
    with open_page(mapped) as (page, log):
        section = page.locator("section.category[data-category='Agentic AI']")  # the hostile shortlist's
        shown = section.locator(".paper-map .t circle").evaluate_all(
            "dots => dots.map(d => [d.dataset.p, d.querySelector('title').textContent])")
        rows = {p: section.locator(f"tr[data-paper-id='{p}']") for p, _ in shown}
        expected = {p: f"#{r.locator('td.rank').text_content()} {r.locator('.title').text_content()}"
                    for p, r in rows.items()}
        assert dict(shown) == expected
        hostile = [t for _, t in shown if "<script>" in t or "<img" in t]
        assert len(hostile) >= 3, shown  # the shortlist's hostile titles, as text
        assert page.locator(".paper-map img, .paper-map script, .map-text img, .map-text script").count() == 0
        section.locator(".paper-map .t circle").first.hover()
    clean(log)


@pytest.mark.parametrize(("width", "height"), [(1400, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_maps_fit_without_sideways_scrolling(mapped: Path, width: int, height: int) -> None:
    with open_page(mapped, width=width, height=height) as (page, log):
        for block in page.locator(".map-block").all():
            block.scroll_into_view_if_needed()
            box = block.locator("svg.paper-map").bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
            assert box["height"] > 50
        widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], widths
    clean(log)


@pytest.mark.parametrize("marts_kept", [False, True], ids=["marts-dropped", "marts-left-over"])
def test_without_the_related_extra_no_map_and_one_line(related: Project, tmp_path: Path,
                                                       marts_kept: bool) -> None:
    """A build without the related extra has no map, even when a map mart was left in its
    warehouse (the build's recorded extras decide), and says so in one line."""
    copy = warehouse_copy(related, tmp_path)
    others = tuple(p for p in EXTRAS if p != "related")
    if marts_kept:
        con = duckdb.connect(str(copy.db))
        try:
            con.execute("update marts.build_settings set extras = ?", [",".join(others)])
            assert con.execute("select count(*) from marts.paper_map_positions").fetchone()[0] > 0
        finally:
            con.close()
    else:
        keep_parts(copy.db, others)
    path = render_pages(copy.db, tmp_path / "report")[VENUE]
    doc = parsed(path)
    assert not doc.xpath("//*[contains(@class, 'map-block')] | //*[local-name()='svg'][contains(@class, 'paper-map')]")
    assert not doc.xpath("//*[contains(@class, 'coverage') or contains(@class, 'near-note')]")
    lines = [text(p) for p in doc.xpath("//p[@id='no-map']")]
    assert lines == ["No maps of the papers: this build has no related extra, and the maps come "
                     "with it (EXTRAS=all or a list with related)."]
    assert "maps" in text(doc.xpath("//p[@id='build-parts']")[0])
    with open_page(path) as (page, log):
        section = page.locator("section.category").first
        pick(section, ranked_ids(section)[0])
        assert page.locator("#pick-total").text_content().startswith("1 paper picked")
    clean(log)
