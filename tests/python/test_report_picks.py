"""The page shows the recorded picks in aggregate: how many experts picked
each paper, and the viewer's own picks from their browser, never every pick of every expert.

The small venue's published build (a copy per test) gets picks written into marts.expert_picks:
`experts` experts each picking the same five shortlisted papers. The page is structurally bounded:
10 experts and 1,000 experts give pages that differ only in the digits of the counts, and no
expert's name or note is on it. A real Chromium shows the count and lists the viewer's own ticks.
(How fast and how big with 100,000 picks: bench/picks_page.py.)
"""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest
from browser import open_page
from project import Project

from paperrank.cli import run

VENUE = "SYNTH 2026"


def with_picks(small_built: Project, folder: Path, experts: int) -> Path:
    """A copy of the published build whose picks are `experts` experts each picking the top five
    papers of the first ranked category."""
    db = folder / "published.duckdb"
    shutil.copy(small_built.published, db)
    con = duckdb.connect(str(db))
    try:
        con.execute("delete from marts.expert_picks")
        con.execute("""
            insert into marts.expert_picks by name
            select r.venue, r.paper_id, r.category as selected_category,
                   'Expert ' || e.i as selected_by, 'why ' || e.i as note, ? as expert_count,
                   r.title, r.category as paper_category, r.category_rank, r.category_size,
                   r.local_top_overall, true as is_ranked, r.is_top_n, true as is_category_match,
                   false as is_flagged
            from marts.paper_rankings as r, range(?) as e(i)
            where r.venue = ? and r.category = (select min(category) from marts.paper_rankings
                                                 where venue = ?)
              and r.category_rank <= 5""", [experts, experts, VENUE, VENUE])
    finally:
        con.close()
    return db


def report(db: Path, out: Path) -> Path:
    assert run(["report", "--db", str(db), "--venue", VENUE, "--out-dir", str(out)]) == 0
    [page] = out.glob("*.html")
    return page


def test_the_page_does_not_grow_with_the_picks(small_built: Project, tmp_path: Path) -> None:
    sizes = {}
    for experts in (10, 1000):
        folder = tmp_path / str(experts)
        folder.mkdir()
        page = report(with_picks(small_built, folder, experts), folder / "report")
        html = page.read_text(encoding="utf-8")
        assert f'<td class="num expert-count">{experts}</td>' in html
        assert html.count('class="num expert-count"') == 5  # one row per picked paper
        assert "Expert 7" not in html and "why 7" not in html  # no one's name or note
        sizes[experts] = len(html.encode("utf-8"))
    # the same five papers: only the counts' digits (and the time stamps) may differ
    assert abs(sizes[1000] - sizes[10]) <= 5 * 2 + 64, sizes


@pytest.mark.e2e
def test_the_browser_shows_the_count_and_the_viewers_own_picks(small_built: Project,
                                                              tmp_path: Path) -> None:
    page_path = report(with_picks(small_built, tmp_path, 3), tmp_path / "report")
    with open_page(page_path) as (page, log):
        counts = page.locator("section#picks table.picks td.expert-count")
        assert counts.count() == 5
        assert {counts.nth(i).text_content() for i in range(5)} == {"3"}
        row = page.locator("section.category tr[data-paper-id]").first
        title = " ".join((row.locator(".title").first.text_content() or "").split())
        row.locator("input.pick").check()
        mine = page.locator("#my-picks li")
        assert title and mine.count() == 1 and title in " ".join((mine.first.text_content() or "").split())
        page.reload()  # the viewer's own picks come back from the browser's storage
        assert page.locator("#my-picks li").count() == 1
        assert not log.page_errors, log.page_errors
