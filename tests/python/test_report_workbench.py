"""The experts' workbench, driven in Debian's Chromium: search, the status, band and sub-theme
filters, sort, the pick quota and the picked-only view, picking from the search results, the
downloads (CSV for `paperrank picks import`, BibTeX for a reading list), picks kept per venue,
and the layout at a desktop's and a phone's width.

The session's hostile venue (`hostile_built`, tests/python/hostile_venue.py: one warehouse with
a venue of hostile titles, abstracts, authors, keywords, links and Orals and a plain one, built
once by the real loaders and dbt, seeds and models, few replicates), its pages drawn in-process;
and degenerate venues (one paper, identical scores).
The loaders and dbt run in this process (`Project.cli`, `Project.dbt_in_process`: the worker's
one parse of the project); the pages open in the process's one Chromium (browser.py), each in a
browser context of its own.
"""

from __future__ import annotations

import csv
import io
import re
import subprocess
import sys
from pathlib import Path

import duckdb
import lxml.html
import pandas as pd
import pytest
from browser import browser_context, open_page
from hostile_venue import (
    HOSTILE_ABSTRACT,
    HOSTILE_AUTHORS,
    HOSTILE_KEYWORDS,
    HOSTILE_TITLE,
    LOW_TITLE,
    RATIONALE,
    SECOND,
    SHORTLIST_RATIONALE,
    VARS,
    VENUE,
    build_marts,
    synthetic_venue,
)
from project import Project, warehouse_copy
from project import query as read
from report_pages import bib_entries, bib_text, paper_rows, read_csv, render_pages

from paperrank.report.latex import to_text

pytestmark = pytest.mark.e2e  # builds venues with dbt and renders them

HOSTILE_NOTE = '=HYPERLINK("http://x") <script>alert(1)</script>, "comma"\nsecond line'
# what a BibTeX or LaTeX run would read as syntax, or run: it must stay text
BIB_NOTE = ("} @misc{evil, title={x}} \\input{/etc/passwd} \\write18{rm -rf ~} %comment #1 "
            "& $x^2_y$ ~ <a>|b \\\\ {unbalanced")
EXPERT = "Dr. Zoë O'Brien-Smith (ML)"


@pytest.fixture(scope="module")
def venues(hostile_built: Project, tmp_path_factory: pytest.TempPathFactory) -> tuple[Project, dict[str, Path]]:
    """The session's two venues in one warehouse (read-only here: a test that writes takes a
    copy); their pages, drawn in-process into this module's own folder."""
    return hostile_built, render_pages(hostile_built.db, tmp_path_factory.mktemp("workbench") / "report")


@pytest.fixture(scope="module")
def venue(venues: tuple[Project, dict[str, Path]]) -> tuple[Project, Path]:
    project, pages = venues
    return project, pages[VENUE]


def visible_ids(page) -> list[str]:
    return page.eval_on_selector_all(
        "tr[data-paper-id]:not([hidden])", "rows => rows.map(r => r.dataset.paperId)")


def clean(log) -> None:
    assert log.console == [] and log.page_errors == [] and log.dialogs == []


# -- search, filters, sort -----------------------------------------------------------------------
def test_search_filters_and_sort(venue: tuple[Project, Path]) -> None:
    _, path = venue
    with open_page(path) as (page, log):
        everything = visible_ids(page)
        assert len(everything) > 40
        page.fill("#paper-search", "diffusionzz")  # only in the hostile abstract
        assert len(visible_ids(page)) == 1
        page.fill("#paper-search", "Gödel")  # the title as read, not as typed in LaTeX
        assert len(visible_ids(page)) == 1
        page.fill("#paper-search", "kwzz")  # only in the hostile keywords
        assert len(visible_ids(page)) == 1
        page.fill("#paper-search", "author 1")
        narrowed = visible_ids(page)
        assert 0 < len(narrowed) < len(everything)
        page.fill("#paper-search", "")
        assert visible_ids(page) == everything
        for band in ("secure", "borderline", "outside"):
            page.select_option("#band-filter", band)
            shown = page.eval_on_selector_all("tr[data-paper-id]:not([hidden])",
                                              "rows => rows.map(r => r.dataset.band)")
            assert shown and set(shown) == {band}, band
        page.select_option("#band-filter", "all")
        # the status filter: only the orals, every one of them
        assert page.eval_on_selector_all("#status-filter option", "o => o.map(x => x.value)") == [
            "all", "Poster", "Oral"]
        orals = page.eval_on_selector_all("tr[data-paper-id][data-status='Oral']",
                                          "rows => rows.map(r => r.dataset.paperId)")
        page.select_option("#status-filter", "Oral")
        shown = visible_ids(page)
        assert shown == orals and 0 < len(shown) < len(everything)
        assert set(page.eval_on_selector_all("tr[data-paper-id]:not([hidden]) .badge.status",
                                             "b => b.map(x => x.textContent)")) == {"Oral"}
        page.select_option("#status-filter", "all")
        assert visible_ids(page) == everything

        section = page.locator("section.category").first
        def ranks() -> list[int]:
            return [int(v) for v in section.locator("tbody.paper td.c-rank").all_text_contents()]
        def chances() -> list[float]:
            return [float(v) for v in section.locator("tbody.paper td.c-sure .pv").all_text_contents()]
        # a click anywhere on a header sorts: here its top-left corner, outside the words
        header = section.locator("thead th.c-rank")
        header.evaluate("th => th.scrollIntoView({block: 'center'})")
        box = header.bounding_box()
        page.mouse.click(box["x"] + 3, box["y"] + 3)
        assert header.get_attribute("aria-sort") == "ascending" and ranks() == sorted(ranks())
        page.mouse.click(box["x"] + box["width"] - 3, box["y"] + box["height"] - 3)
        assert header.get_attribute("aria-sort") == "descending"
        assert ranks() == sorted(ranks(), reverse=True)
        # and by keyboard: the header is a button
        sure = section.locator("thead th.c-sure button.sort")
        sure.focus()
        page.keyboard.press("Enter")
        assert chances() == sorted(chances()) and chances() != sorted(chances(), reverse=True)
        page.keyboard.press("Space")
        assert chances() == sorted(chances(), reverse=True)
        section.locator("thead th.c-paper button.sort").click()
        titles = [t.lower() for t in section.locator("tbody.paper .title").all_text_contents()]
        assert titles == sorted(titles)
        # picked papers first: the Pick column sorts too
        last = section.locator("tr[data-paper-id]").last
        last_id = last.get_attribute("data-paper-id")
        last.locator("input.pick").check()
        section.locator("thead th.c-pick button.sort").click()
        assert section.locator("tr[data-paper-id]").first.get_attribute("data-paper-id") == last_id
        # a row's details stay under it when sorted
        assert section.locator("tbody.paper").first.locator("tr.panel").get_attribute("data-for") == last_id
    clean(log)
    assert set(log.requests) == {path.resolve().as_uri()}


def test_subtheme_chips_filter_and_related_links_jump(venue: tuple[Project, Path], tmp_path: Path) -> None:
    """With the related-papers part (stand-ins of its marts): a sub-theme chip shows only its
    papers and a second press shows all again; a related paper's link jumps to its row (filters
    cleared when they hid it), or shows a paper no list holds among the search results."""
    from report_marts import add_related_marts, split_parts

    project, _ = venue
    copy = warehouse_copy(project, tmp_path)
    split_parts(copy.db)
    add_related_marts(copy.db, k=5)
    path = render_pages(copy.db, tmp_path / "report")[VENUE]
    with open_page(path) as (page, log):
        section = page.locator("section.category").first
        everything = visible_ids(page)
        chip = section.locator("button.subtheme").first
        key = chip.get_attribute("data-subtheme")
        chip.click()
        assert chip.get_attribute("aria-pressed") == "true"
        shown = section.locator("tr[data-paper-id]:not([hidden])")
        themes = shown.evaluate_all("rows => rows.map(r => r.dataset.subtheme)")
        assert themes and set(themes) == {key}
        assert len(visible_ids(page)) < len(everything)
        chip.click()
        assert chip.get_attribute("aria-pressed") == "false" and visible_ids(page) == everything
        # a related link to a listed paper: its row, scrolled to, even when a filter hid it
        first = section.locator("tbody.paper").first
        source = first.locator("tr[data-paper-id]").get_attribute("data-paper-id")
        first.locator("details.t-related summary").click()
        link = first.locator("a.related[href^='#']").first
        target = link.get_attribute("data-paper-id")
        page.fill("#paper-search", source)  # the search finds a paper by its id too
        assert visible_ids(page) == [source]
        row = page.locator(f"tr[data-paper-id='{target}']")
        assert row.is_hidden()
        link.click()
        assert row.is_visible() and page.input_value("#paper-search") == ""
        top = row.evaluate("r => r.getBoundingClientRect().top")
        assert 0 <= top <= page.viewport_size["height"]
        # a related paper no list shows: among the search results, pickable there
        outside = page.locator("a.related:not([href^='#'])").first
        target = outside.get_attribute("data-paper-id")
        outside.evaluate("a => a.closest('tbody').querySelector('details.t-related').open = true")
        outside.click()
        item = page.locator(f"#more-matches-list li[data-paper-id='{target}']")
        assert item.is_visible() and item.locator("input.pick").count() == 1
    clean(log)
    assert set(log.requests) == {path.resolve().as_uri()}


def test_search_finds_unlisted_papers_and_picks_them(venue: tuple[Project, Path], tmp_path: Path) -> None:
    """The lists show each shortlist and a few papers below its cut; the search also finds
    every other ranked paper (by title, authors and keywords) from the page's packed index, and
    a paper found there is picked there: it counts, shows in the picked-only view and lands in
    both downloads."""
    project, path = venue
    quoted = LOW_TITLE.replace("'", "''")
    found = read(project.db, f"""
        select paper_id, category, category_rank, (select count(*) from marts.paper_rankings as t
            where t.venue = r.venue and t.category = r.category and t.is_top_n) as top
        from marts.paper_rankings as r where title = '{quoted}'""")
    paper_id, category = found["paper_id"][0], found["category"][0]
    rank, top = int(found["category_rank"][0]), int(found["top"][0])
    assert rank > top + 10  # below the list
    unlisted = read(project.db, f"""
        select count(*) as n from marts.paper_rankings as r
        where venue = '{VENUE}' and category_rank > (select count(*) from marts.paper_rankings as t
            where t.venue = r.venue and t.category = r.category and t.is_top_n) + 10""")["n"][0]
    with open_page(path) as (page, log):
        assert page.get_attribute("#more-matches", "data-count") == str(unlisted)
        assert page.locator("#more-matches").is_hidden()
        page.fill("#paper-search", "zzunlisted")
        page.wait_for_selector("#more-matches-list li")
        item = page.locator("#more-matches-list li")
        assert item.count() == 1 and item.get_attribute("data-paper-id") == paper_id
        assert item.locator(".title").text_content() == LOW_TITLE  # as text, not markup
        assert page.locator("#more-matches img").count() == 0
        assert f"#{rank}" in item.text_content() and category in item.text_content()
        assert visible_ids(page) == []  # no list row matches
        assert "and 1 below the lists" in page.text_content("#search-status")
        count = page.locator(f".pick-count[data-category='{category}']")
        assert count.text_content() == "0"
        item.locator("input.pick").check()
        assert count.text_content() == "1"
        assert page.text_content("#pick-total").startswith("1 paper picked")
        item.locator("textarea.pick-note").fill(HOSTILE_NOTE)
        # picked only: the lists hide every row, the search results keep the pick, with no search
        page.fill("#paper-search", "")
        page.check("#picked-only")
        assert visible_ids(page) == []
        assert page.locator("#more-matches-list li").count() == 1
        assert page.locator("#more-matches-list li").get_attribute("data-paper-id") == paper_id
        assert page.locator("#my-picks li").count() == 1
        page.uncheck("#picked-only")
        assert page.locator("#more-matches").is_hidden()
        page.fill("#expert-name", EXPERT)
        with page.expect_download() as download_info:
            page.click("#download-picks")
        download_info.value.save_as(tmp_path / "picks.csv")
        with page.expect_download() as download_info:
            page.click("#download-bibtex")
        download_info.value.save_as(tmp_path / "picks.bib")
        page.fill("#paper-search", "zzunlisted")
        band = item.locator(".where").text_content().split("\u00b7")[-1].strip()  # category · #rank · status · band
        other = next(b for b in ("secure", "borderline", "outside") if b != band)
        page.select_option("#band-filter", other)
        assert page.locator("#more-matches").is_hidden()
        page.select_option("#band-filter", "all")
        page.fill("#paper-search", "author")  # every synthetic paper: more than 50 below
        assert page.locator("#more-matches-list li").count() == 50
        assert "more: narrow the search" in page.text_content("#more-matches-more")
    clean(log)
    assert {u for u in log.requests if not u.startswith("blob:")} == {path.resolve().as_uri()}
    assert read_csv(tmp_path / "picks.csv") == [
        ["venue", "paper_id", "category", "selected_by", "note"],
        [VENUE, paper_id, category, EXPERT, "'" + HOSTILE_NOTE]]  # a formula as text
    (entry,) = bib_entries((tmp_path / "picks.bib").read_text(encoding="utf-8"))
    assert bib_text(entry["title"]) == LOW_TITLE
    assert entry["url"] == f"https://openreview.net/forum?id={paper_id}"


def test_quota_counter_and_picked_only_view(venue: tuple[Project, Path]) -> None:
    _, path = venue
    with open_page(path) as (page, log):
        section = page.locator("section.category").first
        category = section.get_attribute("data-category")
        rows = section.locator("tr[data-paper-id]")
        picked = []
        for i in range(6):
            rows.nth(i * 2).locator("input.pick").check()
            picked.append(rows.nth(i * 2).get_attribute("data-paper-id"))
        quota = section.locator("p.quota")
        assert " ".join(quota.text_content().split()) == "Your picks here: 6 of 5 \u2014 1 over your quota of 5"
        assert "1 category is over it" in page.text_content("#pick-total")
        page.check("#picked-only")
        assert visible_ids(page) == picked
        assert page.locator("section.category .no-match:visible").count() == page.locator(
            "section.category").count() - 1
        rows.nth(0).locator("input.pick").uncheck()  # in the picked-only view: it leaves it
        assert visible_ids(page) == picked[1:]
        assert " ".join(quota.text_content().split()) == "Your picks here: 5 of 5 \u2014 quota reached"
        assert page.locator(f".pick-count[data-category='{category}']").text_content() == "5"
        page.uncheck("#picked-only")
        assert len(visible_ids(page)) > 6
    clean(log)


@pytest.mark.parametrize(("width", "height"), [(1400, 900), (390, 844)], ids=["desktop", "phone"])
def test_layout_never_scrolls_sideways(venue: tuple[Project, Path], width: int, height: int) -> None:
    """At a desktop's and a phone's width the document never scrolls sideways, before and after
    a box is ticked and a row's panels open; the first row's pick box lies inside the viewport."""
    _, path = venue
    with open_page(path, width=width, height=height) as (page, log):
        def widths() -> list[int]:
            return page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        before = widths()
        box = page.locator("tr[data-paper-id] input.pick").first
        box.scroll_into_view_if_needed()
        rect = box.bounding_box()
        assert rect is not None and rect["x"] >= 0 and rect["x"] + rect["width"] <= width
        box.check()
        hostile = page.locator("tbody.paper", has=page.locator("span.keywords", has_text="kwzz"))
        hostile.locator("input.pick").check()
        for toggle in ("t-more", "t-abstract"):
            hostile.locator(f"details.{toggle} summary").click()
        hostile.locator("textarea.pick-note").fill("x" * 500)
        assert hostile.locator(".pane-abstract").is_visible()
        after = widths()
        label = page.locator("tr[data-paper-id] .pick-label").first.bounding_box()
        assert label["x"] + label["width"] <= width
    assert before[0] <= before[1] and after[0] <= after[1], (before, after)
    clean(log)


# -- what a row carries ---------------------------------------------------------------------------
def test_rows_carry_what_an_expert_reads(venue: tuple[Project, Path]) -> None:
    project, path = venue
    doc = lxml.html.fromstring(path.read_bytes())
    ranked = read(project.db, "select paper_id, title, status, pdf_url, abstract, authors, keywords, "
                              "label_rationale from marts.paper_rankings").set_index("paper_id")
    rows = [r for s in doc.xpath("//section[contains(@class, 'category')]") for r in paper_rows(s)]
    assert rows
    for row in rows:
        expected = ranked.loc[row["paper_id"]]
        assert row["title"] == to_text(expected["title"])
        assert row["status"] == expected["status"] and expected["status"] in row["tags"]
        assert row["keywords"] == " ".join(" · ".join(expected["keywords"].split("; ")).split())
        assert row["abstract"] == expected["abstract"]
        assert row["authors"] == expected["authors"]
        # the label's rationale as the mart has it: markup read as text
        assert row["rationale"] == expected["label_rationale"] in (RATIONALE, SHORTLIST_RATIONALE)
        assert row["move"] is None  # one snapshot: no score movement column
    group = doc.xpath("//tbody[contains(@class, 'paper')]")[0]
    assert ranked.loc[group.xpath("./tr/@data-paper-id")[0], "pdf_url"] in group.xpath(".//a/@href")
    hostile = [r for r in rows if "Machine" in r["title"]]
    assert len(hostile) == 1
    assert hostile[0]["title"] == '<script>alert("t")</script> Huxley-Gödel Machine: MoE³ & α-Nets'
    assert hostile[0]["abstract"] == HOSTILE_ABSTRACT
    assert hostile[0]["authors"] == "; ".join(HOSTILE_AUTHORS)
    assert hostile[0]["keywords"] == " · ".join(HOSTILE_KEYWORDS)
    assert doc.xpath("//script") and len(doc.xpath("//script")) == 1
    assert doc.xpath("//@*[starts-with(name(), 'on')]") == []
    assert doc.xpath("//img[not(starts-with(@src, 'data:image/svg+xml,'))]") == []


def test_score_movement_between_two_snapshots(venue: tuple[Project, Path], tmp_path: Path) -> None:
    """A later snapshot of the same venue with lower ratings for a few papers: their rows show
    the mean rating before -> after, as marts.paper_score_history has it, and the category's
    movers list them; an unchanged paper shows no change."""
    project, _ = venue
    moved = warehouse_copy(project, tmp_path)
    frame = pd.read_parquet(project.scratch / "hostile-2026.parquet")
    top = set(read(project.db, f"select paper_id from marts.paper_rankings "
                               f"where venue = '{VENUE}' and category_rank <= 5")["paper_id"])
    # two steps down the form's even scale (0, 2, ..., 10), so every rating stays valid
    changed = [i for i in frame.index if frame.at[i, "openreview_id"] in top
               and min(frame.at[i, "rating"]) >= 2]
    assert len(changed) >= 3
    for i in changed:
        frame.at[i, "rating"] = [r - 2 for r in frame.at[i, "rating"]]
    frame.to_parquet(tmp_path / "later.parquet")
    moved.cli("ingest", "file", str(tmp_path / "later.parquet"), "--venue", VENUE,
              "--profile", "iclr2026", "--snapshot-at", "2030-01-01T00:00:00+00:00")
    moved.dbt_in_process("run", "--select", "paper_score_history", dbt_vars=VARS)
    doc = lxml.html.fromstring(render_pages(moved.db, tmp_path / "report")[VENUE].read_bytes())
    history = read(moved.db, "select paper_id, previous_rating_mean, rating_mean from "
                             "marts.paper_score_history where is_latest_snapshot").set_index("paper_id")
    changed_ids = {frame.at[i, "openreview_id"] for i in changed}
    changed_titles = set()
    for section in doc.xpath("//section[contains(@class, 'category')]"):
        for row in paper_rows(section):
            paper = row["paper_id"]
            before, after = history.loc[paper, "previous_rating_mean"], history.loc[paper, "rating_mean"]
            if pd.isna(before) or before == after:  # an unchanged review is not recorded again
                assert paper not in changed_ids and row["move"] in (
                    "\u2013", f"{after:.2f} \u2192 {after:.2f} (+0.00)")
                continue
            change = after - before
            assert paper in changed_ids and abs(change + 2) < 1e-9, (paper, before, after)
            assert row["move"] == f"{before:.2f} \u2192 {after:.2f} ({change:+.2f})", (paper, row["move"])
            changed_titles.add(row["title"])
    assert len(changed_titles) == len(changed_ids)  # every changed paper is listed, and shows it
    movers = {tr.xpath("./td[contains(@class, 'title-col')]")[0].text_content()
              for tr in doc.xpath("//table[contains(@class, 'movers')]/tbody/tr")}
    assert changed_titles <= movers


def test_csp_allows_only_the_page_script_and_no_connection(venue: tuple[Project, Path]) -> None:
    _, path = venue
    doc = lxml.html.fromstring(path.read_bytes())
    csp = doc.xpath("//meta[@http-equiv='Content-Security-Policy']/@content")[0]
    assert "connect-src 'none'" in csp and "default-src 'none'" in csp
    assert re.search(r"script-src 'sha256-[A-Za-z0-9+/=]+';", csp)
    assert "unsafe" not in csp


def test_without_script_the_page_reads_as_a_report(venue: tuple[Project, Path]) -> None:
    _, path = venue
    with open_page(path, javascript=False) as (page, log):
        assert page.locator("#tools").is_hidden()
        assert page.locator("input.pick").first.is_hidden()
        assert page.locator("tr[data-paper-id]").first.is_visible()
        group = page.locator("tbody.paper").first
        assert group.locator(".pane-abstract").is_hidden()
        group.locator("details.t-abstract summary").click()
        assert group.locator(".pane-abstract p").is_visible()
        group.locator("details.t-more summary").click()
        assert group.locator(".pane-more .rationale").is_visible()
    assert log.page_errors == []


# -- picks: tick, note, name, download, reload; two venues apart ----------------------------------
def test_picks_download_as_csv_and_bibtex_and_survive_a_reload(venue: tuple[Project, Path],
                                                               tmp_path: Path) -> None:
    project, path = venue
    with open_page(path) as (page, log):
        hostile = page.locator("tbody.paper", has=page.locator("span.keywords", has_text="kwzz"))
        hostile_row = hostile.locator("tr[data-paper-id]")
        section = page.locator("section.category", has=hostile)
        other_group = section.locator("tbody.paper").nth(3)
        other = other_group.locator("tr[data-paper-id]")
        ids = [hostile_row.get_attribute("data-paper-id"), other.get_attribute("data-paper-id")]
        category = hostile_row.get_attribute("data-category")
        assert page.locator("#download-picks").is_disabled()
        assert page.locator("#download-bibtex").is_disabled()
        hostile_row.locator("input.pick").check()
        other.locator("input.pick").check()
        hostile.locator("textarea.pick-note").fill(HOSTILE_NOTE)
        other_group.locator("textarea.pick-note").fill(BIB_NOTE)
        page.fill("#expert-name", 'Bad, "name" <b>')
        assert page.locator("#download-picks").is_disabled()
        assert page.locator("#download-bibtex").is_enabled()  # a reading list needs no name
        assert page.locator("#expert-name-error").is_visible()
        page.fill("#expert-name", EXPERT)
        assert page.locator("#download-picks").is_enabled()
        count = page.locator(f".pick-count[data-category='{category}']")
        assert count.text_content() == "2"
        with page.expect_download() as download_info:
            page.click("#download-picks")
        download_info.value.save_as(tmp_path / "picks.csv")
        with page.expect_download() as download_info:
            page.click("#download-bibtex")
        download_info.value.save_as(tmp_path / "picks.bib")
        assert download_info.value.suggested_filename.endswith(".bib")
        page.reload()
        assert page.locator("input.pick:checked").count() == 2
        assert page.input_value("#expert-name") == EXPERT
        assert hostile.locator("textarea.pick-note").input_value() == HOSTILE_NOTE
        assert count.text_content() == "2"
    clean(log)
    assert {u for u in log.requests if not u.startswith("blob:")} == {path.resolve().as_uri()}

    rows = read_csv(tmp_path / "picks.csv")
    assert rows[0] == ["venue", "paper_id", "category", "selected_by", "note"]
    by_id = {r[1]: r for r in rows[1:]}
    assert set(by_id) == set(ids)
    assert by_id[ids[0]] == [VENUE, ids[0], category, EXPERT, "'" + HOSTILE_NOTE]  # a formula as text
    assert by_id[ids[1]] == [VENUE, ids[1], category, EXPERT, BIB_NOTE]

    source = (tmp_path / "picks.bib").read_text(encoding="utf-8")
    assert "\\input" not in source and "\\write18" not in source
    entries = {e["key"]: e for e in bib_entries(source)}
    assert set(entries) == {f"paperrank-{i}" for i in ids}  # the note's "@misc{" opened no entry
    first = entries[f"paperrank-{ids[0]}"]
    assert first["type"] == "inproceedings"
    assert bib_text(first["title"]) == to_text(HOSTILE_TITLE)
    assert bib_text(first["author"]) == " and ".join(HOSTILE_AUTHORS)
    assert bib_text(first["booktitle"]) == VENUE and first["year"] == "2026"
    # the link percent-encoded beyond letters, digits and - . : / ? = &
    assert first["url"] == (f"https://openreview.net/forum?id={ids[0]}&x=%7D%25%5Cinput%7By%7D%23frag"
                            "%7C%7E%20%24%5F%5E")
    assert bib_text(first["note"]) == " ".join(HOSTILE_NOTE.split())
    assert bib_text(entries[f"paperrank-{ids[1]}"]["note"]) == " ".join(BIB_NOTE.split())

    # the download goes back through `paperrank picks import`, each pick filed under its venue
    seed = tmp_path / "expert_selections.csv"
    picks = ["picks", "import", str(tmp_path / "picks.csv"), "--db", str(project.db), "--seed", str(seed)]
    result = project.cli(*picks)
    assert "picks taken: 2; not taken: 0" in result.stdout
    before = seed.read_bytes()
    again = project.cli(*picks)
    assert "unchanged (2 picks)" in again.stdout and seed.read_bytes() == before
    assert list(csv.reader(io.StringIO(seed.read_text(encoding="utf-8"))))[1:] == sorted(
        rows[1:], key=lambda r: (r[0], r[2], r[3], r[1]))


def test_two_venues_keep_their_picks_apart(venues: tuple[Project, dict[str, Path]], tmp_path: Path) -> None:
    """Two venues' pages in one browser (file:// pages share localStorage): each download
    carries its page's venue and only its picks, and neither page shows the other's ticks."""
    _, pages = venues
    with browser_context() as (context, log):
        first = context.new_page()
        first.goto(pages[VENUE].resolve().as_uri())
        mine = first.locator("tr[data-paper-id]").first.get_attribute("data-paper-id")
        first.locator("tr[data-paper-id] input.pick").first.check()
        first.fill("#expert-name", "Ann")
        second = context.new_page()
        second.goto(pages[SECOND].resolve().as_uri())
        assert second.locator("input.pick:checked").count() == 0
        assert second.text_content("#pick-total").startswith("0 papers picked")
        assert second.input_value("#expert-name") == ""
        theirs = second.locator("tr[data-paper-id]").nth(1).get_attribute("data-paper-id")
        second.locator("tr[data-paper-id] input.pick").nth(1).check()
        second.fill("#expert-name", "Bob")
        downloads = {}
        for name, page in (("first", first), ("second", second)):
            page.reload()
            with page.expect_download() as info:
                page.click("#download-picks")
            info.value.save_as(tmp_path / f"{name}.csv")
            downloads[name] = read_csv(tmp_path / f"{name}.csv")
            assert page.locator("input.pick:checked").count() == 1
        keys = first.evaluate("Object.keys(localStorage).sort()")
    clean(log)
    assert keys == [f"paperrank-picks:{VENUE}", f"paperrank-picks:{SECOND}"]
    assert [r[:2] + r[3:4] for r in downloads["first"][1:]] == [[VENUE, mine, "Ann"]]
    assert [r[:2] + r[3:4] for r in downloads["second"][1:]] == [[SECOND, theirs, "Bob"]]


def test_recorded_picks_show_on_their_venue_only(venues: tuple[Project, dict[str, Path]],
                                                 tmp_path: Path) -> None:
    """marts.expert_picks holds both venues' picks; each page lists only its own, in aggregate."""
    project, _ = venues
    copy = warehouse_copy(project, tmp_path)
    con = duckdb.connect(str(copy.db))
    try:
        con.execute("delete from marts.expert_picks")
        con.execute("""
            insert into marts.expert_picks
                (venue, paper_id, selected_category, selected_by, note, expert_count, title,
                 paper_category, category_rank, category_size, local_top_overall, is_ranked,
                 is_top_n, is_category_match, is_flagged)
            select venue, paper_id, category, 'Ann', 'note of ' || venue, 1, title, category,
                   category_rank, category_size, local_top_overall, true, is_top_n, true, false
            from marts.paper_rankings where category_rank = 1""")
        expected = con.execute("select venue, list(paper_id order by paper_id) from marts.expert_picks "
                               "group by venue").fetchall()
    finally:
        con.close()
    pages = render_pages(copy.db, tmp_path / "report")
    assert {v for v, _ in expected} == {VENUE, SECOND}
    for venue_name, ids in expected:
        doc = lxml.html.fromstring(pages[venue_name].read_bytes())
        shown = doc.xpath("//table[contains(@class, 'picks')]/tbody/tr/th/span[@class='pid']/text()")
        assert sorted(shown) == ids
        # in aggregate: how many experts, never who or their notes
        counts = doc.xpath("//table[contains(@class, 'picks')]/tbody/tr/td[contains(@class, 'expert-count')]/text()")
        assert counts == ["1"] * len(ids)
        assert "note of" not in doc.text_content()


# -- accessibility -------------------------------------------------------------------------
def test_controls_are_labelled_and_reachable_by_keyboard(venue: tuple[Project, Path]) -> None:
    _, path = venue
    with open_page(path) as (page, log):
        unlabelled = page.evaluate("""() => [...document.querySelectorAll(
                'input, select, textarea, button')].filter(el => {
            const label = el.id && document.querySelector(`label[for="${el.id}"]`);
            const by = (el.getAttribute('aria-labelledby') || '').split(' ').filter(Boolean)
                .map(id => (document.getElementById(id) || {}).textContent || '').join(' ').trim();
            const named = (el.getAttribute('aria-label') || '').trim() || by
                || (label && label.textContent.trim())
                || (el.closest('label') && el.closest('label').textContent.trim())
                || (el.tagName === 'BUTTON' && el.textContent.trim());
            return !named; }).map(el => el.outerHTML.slice(0, 80))""")
        assert unlabelled == []
        first_box = page.locator("tr[data-paper-id] input.pick").first
        name = first_box.evaluate("b => b.getAttribute('aria-labelledby').split(' ')"
                                  ".map(id => document.getElementById(id).textContent).join(' ')")
        title = page.locator("tr[data-paper-id] .title").first.text_content()
        assert name == f"Pick {title}"
        images = page.evaluate("() => [...document.images].filter(i => !i.alt).length")
        assert images == 0
        page.locator("body").focus()
        reached, outlines = [], []
        for _ in range(120):
            page.keyboard.press("Tab")
            state = page.evaluate("""() => { const el = document.activeElement;
                const name = el.classList.contains('pick') ? 'pick' : el.id || el.className || el.tagName;
                return [name, getComputedStyle(el).outlineStyle]; }""")
            reached.append(state[0])
            outlines.append(state[1])
            if state[0] == "pick":
                break
        for hook in ("paper-search", "status-filter", "band-filter", "picked-only", "expert-name"):
            assert hook in reached, reached
        assert "sort" in reached and "pick" in reached, reached
        assert all(o != "none" for o in outlines), list(zip(reached, outlines, strict=True))
        page.keyboard.press("Space")
        assert page.locator("input.pick:checked").count() == 1
    clean(log)


# -- degenerate venues ---------------------------------------------------------------------
def one_paper(frame: pd.DataFrame, truth: pd.DataFrame):
    return frame.head(1), truth[truth["paper_id"].isin(frame.head(1)["openreview_id"])]


def identical_scores(frame: pd.DataFrame, truth: pd.DataFrame):
    for signal, score in (("rating", 6), ("confidence", 3), ("soundness", 3),
                          ("contribution", 3), ("presentation", 3)):  # on ICLR's scales
        frame[signal] = frame[signal].apply(lambda scores, s=score: [s] * len(scores))
    return frame, truth


DEGENERATE = {"ONE 2026": one_paper, "SAME 2026": identical_scores}


@pytest.fixture(scope="module")
def degenerate(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A one-paper venue and a venue whose papers all score the same, in one warehouse built
    once; neither has a score history."""
    scratch = tmp_path_factory.mktemp("degenerate")
    project = Project(scratch / "warehouse.duckdb", scratch)
    for seed, (name, shape) in enumerate(DEGENERATE.items()):
        synthetic_venue(project, scratch, name, 60, 2026 + seed, shape)
    build_marts(project)
    return render_pages(project.db, scratch / "report")


@pytest.mark.parametrize("name", list(DEGENERATE), ids=["one-paper", "identical"])
def test_degenerate_venues_render(degenerate: dict[str, Path], name: str) -> None:
    """Both render and work at a phone's width; with no score history, no row shows a rating
    move."""
    path = degenerate[name]
    doc = lxml.html.fromstring(path.read_bytes())
    assert doc.xpath("//tr[@data-paper-id]")
    if name == "ONE 2026":
        assert len(doc.xpath("//tr[@data-paper-id]")) == 1
    assert not doc.xpath("//td[contains(@class, 'c-move')]")
    with open_page(path, width=390, height=844) as (page, log):
        page.locator("tr[data-paper-id] input.pick").first.check()
        widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        page.fill("#paper-search", "zzzz-no-such-paper")
        assert visible_ids(page) == []
        assert page.locator(".no-match:visible").count() >= 1
        assert page.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 0)")
    assert widths[0] <= widths[1]
    clean(log)


def test_latex_titles_read_as_text() -> None:
    assert to_text('Huxley-G\\"odel Machine') == "Huxley-Gödel Machine"
    assert to_text("MoE$^3$: fast") == "MoE³: fast"
    assert to_text("$\\alpha$-Nets: \\emph{Fast}   and \\textbf{Sound} \\& {B}ayes") == \
        "α-Nets: Fast and Sound & Bayes"
    assert to_text("Caf\\'{e} na\\\"{\\i}ve \\c{c}a") == "Café naïve ça"
    assert to_text("$O(n^{2})$ and $x_1$") == "O(n²) and x₁"
    assert to_text("<script>") == "<script>"
    assert to_text("\\LaTeX{} --- done") == "LaTeX — done"


def test_download_name_rule_matches_the_import() -> None:
    """The page's script and the importer refuse the same names (one rule, written twice)."""
    from paperrank.picks.names import name_problem
    script = (Path(__file__).resolve().parents[2] / "paperrank" / "report" / "templates"
              / "report.js").read_text(encoding="utf-8")
    assert "NAME_RE = /^[\\p{L}\\p{N}][\\p{L}\\p{N}\\p{M} .'_()-]{0,79}$/u" in script
    for good in (EXPERT, "Ann", "李华", "J. Doe_2"):
        assert name_problem(good) is None, good
    for bad in ("", " Ann", "a,b", 'say "hi"', "<b>", "=1+1", "-x", "@me", "tab\there", "x" * 81):
        assert name_problem(bad) is not None, bad
    result = subprocess.run([sys.executable, "-c", "import paperrank.cli.picks"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_keywords_reach_the_rows_as_the_mart_has_them(venue: tuple[Project, Path]) -> None:
    """paper_rankings.keywords is raw.papers' keyword list, '; '-joined in its order."""
    project, _ = venue
    frame = pd.read_parquet(project.scratch / "hostile-2026.parquet")
    marts = read(project.db, f"select paper_id, keywords from marts.paper_rankings "
                             f"where venue = '{VENUE}'").set_index("paper_id")
    keywords = {r.openreview_id: "; ".join(r.keywords) for r in frame.itertuples()}
    assert {p: keywords[p] for p in marts.index} == marts["keywords"].to_dict()
