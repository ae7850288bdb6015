"""The experts' workbench: the report page's search, band filter, sort and picks, driven in
Debian's Chromium; the download taken back by `paperrank picks import`; and a rebuild (dbt seed +
dbt build) that shows the picks in marts.expert_picks and on the page.

One synthetic venue with hostile titles, abstracts and authors, built by the real loader and
`dbt build` in a copy of the project (so its seed can be written), plus degenerate venues.
"""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import lxml.html
import pandas as pd
import pytest
from browser import open_page
from project import Project, copy_project
from project import query as read

from paperrank.report.latex import to_text

pytestmark = pytest.mark.e2e  # builds venues with dbt and renders them

VENUE = "HOSTILE 2026"
HOSTILE_TITLE = '<script>alert("t")</script> Huxley-G\\"odel Machine: MoE$^3$ & $\\alpha$-Nets'
HOSTILE_ABSTRACT = '</p></details><img src=x onerror=alert(1)> "quoted" & diffusionzz agents'
HOSTILE_AUTHORS = ["Zoë <b>Bold</b>", "O'Brien & Sons"]
HOSTILE_NOTE = '=HYPERLINK("http://x") <script>alert(1)</script>, "comma"\nsecond line'
EXPERT = "Dr. Zoë O'Brien-Smith (ML)"
# a paper ranked far below every list, found only through the page's index of unlisted papers
LOW_TITLE = '<img src=x onerror=alert(2)> zzunlisted & "low" paper'


def dbt_build(project: Project, *extra: str) -> None:
    project.dbt("seed", "--select", "expert_selections", "--full-refresh")
    project.dbt("build", "--vars", "{taxonomy: icml2026, label_model: truth}", *extra)


def render(project: Project, below: int = 10) -> Path:
    result = project.paperrank("report", "--db", str(project.db), "--out-dir",
                    str(project.scratch / "report"), "--below", str(below))
    match = re.search(r"^report for .*: (.+\.html)$", result.stdout, re.MULTILINE)
    assert match, result.stdout
    return Path(match.group(1))


def build_venue(root: Path, scratch: Path, papers: int, shape=None) -> Project:
    """A synthetic venue (shape() may rewrite its papers) loaded and ranked in `root`."""
    project = Project(scratch / "warehouse.duckdb", scratch, root=root)
    papers_file, truth_file = scratch / "venue.parquet", scratch / "truth.parquet"
    project.paperrank("ingest", "synthetic", "--out", str(papers_file), "--papers",
           str(papers), "--labels-out", str(truth_file), "--venue", VENUE)
    frame, truth = pd.read_parquet(papers_file), pd.read_parquet(truth_file)
    if shape is not None:
        frame, truth = shape(frame, truth)
    frame.to_parquet(papers_file)
    labels = truth.assign(confidence="high", rationale="<i>true</i> theme & \"why\"")
    labels.to_parquet(scratch / "labels.parquet")
    project.paperrank("ingest", "file", str(papers_file), "--venue", VENUE,
           "--profile", "iclr2026")
    project.paperrank("classify", "import", str(scratch / "labels.parquet"),
           "--taxonomy", "icml2026", "--model", "truth")
    dbt_build(project)
    return project


def make_hostile(frame: pd.DataFrame, truth: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    first = truth.loc[truth["category"] == "Agentic AI", "paper_id"].iloc[0]
    row = frame.index[frame["openreview_id"] == first][0]
    frame.at[row, "title"] = HOSTILE_TITLE
    frame.at[row, "abstract"] = HOSTILE_ABSTRACT
    for signal, top in (("rating", 10), ("confidence", 5), ("soundness", 4),
                        ("contribution", 4), ("presentation", 4)):
        frame.at[row, signal] = [top, top, top, top]
    agentic = frame["openreview_id"].isin(truth.loc[truth["category"] == "Agentic AI", "paper_id"])
    reviewed = frame["rating"].map(len) > 0
    low = frame.index[agentic & reviewed & (frame.index != row)][0]
    frame.at[low, "title"] = LOW_TITLE
    for signal, bottom in (("rating", 2), ("confidence", 1), ("soundness", 1),
                           ("contribution", 1), ("presentation", 1)):  # the form's lowest
        frame.at[low, signal] = [bottom] * len(frame.at[low, signal])
    frame["authors"] = [HOSTILE_AUTHORS if i == row else [f"Author {i}", "B. Person"]
                        for i in frame.index]
    return frame, truth


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> tuple[Project, Path]:
    scratch = tmp_path_factory.mktemp("workbench")
    root = copy_project(tmp_path_factory.mktemp("workbench_project"))
    project = build_venue(root, scratch, 900, make_hostile)
    return project, render(project)


def visible_ids(page) -> list[str]:
    return page.eval_on_selector_all(
        "tr[data-paper-id]:not([hidden])", "rows => rows.map(r => r.dataset.paperId)")


# -- search, band filter, sort ---------------------------------------------------------------
def test_search_band_filter_and_sort(venue: tuple[Project, Path]) -> None:
    _, path = venue
    with open_page(path) as (page, log):
        everything = visible_ids(page)
        assert len(everything) > 40
        page.fill("#paper-search", "diffusionzz")  # only in the hostile abstract
        assert len(visible_ids(page)) == 1
        page.fill("#paper-search", "Gödel")  # the title as read, not as typed in LaTeX
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
        assert visible_ids(page) == everything
        section = page.locator("section.category").first
        header = section.locator("thead th", has_text="Composite")
        header.locator("button.sort").click()
        values = [float(v) for v in section.locator("tbody td.strong").all_text_contents()]
        assert values == sorted(values) and values != sorted(values, reverse=True)
        assert header.get_attribute("aria-sort") == "ascending"
        header.locator("button.sort").click()
        values = [float(v) for v in section.locator("tbody td.strong").all_text_contents()]
        assert values == sorted(values, reverse=True)
        section.locator("thead th", has_text="Paper").locator("button.sort").click()
        titles = [t.lower() for t in section.locator("tbody .title").all_text_contents()]
        assert titles == sorted(titles)
    assert log.console == [] and log.page_errors == [] and log.dialogs == []
    assert set(log.requests) == {path.resolve().as_uri()}


def test_search_finds_ranked_papers_no_list_shows(venue: tuple[Project, Path]) -> None:
    """The lists show each shortlist and a few papers below its cut; the search also finds
    every other ranked paper (by title and authors), from the page's own packed index."""
    project, path = venue
    quoted = LOW_TITLE.replace("'", "''")
    found = read(project.db, f"""
        select paper_id, category_rank, (select count(*) from marts.paper_rankings as t
                                         where t.category = r.category and t.is_top_n) as top
        from marts.paper_rankings as r where title = '{quoted}'""")
    paper_id, rank, top = found["paper_id"][0], int(found["category_rank"][0]), int(found["top"][0])
    assert rank > top + 10  # below the list
    unlisted = read(project.db, """
        select count(*) as n from marts.paper_rankings as r
        where category_rank > (select count(*) from marts.paper_rankings as t
                               where t.category = r.category and t.is_top_n) + 10""")["n"][0]
    with open_page(path) as (page, log):
        assert page.get_attribute("#more-matches", "data-count") == str(unlisted)
        assert page.locator("#more-matches").is_hidden()
        page.fill("#paper-search", "zzunlisted")
        page.wait_for_selector("#more-matches-list li")
        item = page.locator("#more-matches-list li")
        assert item.count() == 1 and item.get_attribute("data-paper-id") == paper_id
        assert item.locator(".title").text_content() == LOW_TITLE  # as text, not markup
        assert page.locator("#more-matches img").count() == 0
        assert f"#{rank}" in item.text_content() and "Agentic AI" in item.text_content()
        assert visible_ids(page) == []  # no list row matches
        assert "and 1 below the lists" in page.text_content("#search-status")
        band = item.text_content().split("\u00b7")[2].split()[0]
        other = next(b for b in ("secure", "borderline", "outside") if b != band)
        page.select_option("#band-filter", other)
        assert page.locator("#more-matches").is_hidden()
        page.select_option("#band-filter", "all")
        page.fill("#paper-search", "author")  # every synthetic paper: more than 50 below
        assert page.locator("#more-matches-list li").count() == 50
        assert "more: narrow the search" in page.text_content("#more-matches-more")
        page.fill("#paper-search", "")
        assert page.locator("#more-matches").is_hidden()
    assert log.console == [] and log.page_errors == [] and log.dialogs == []
    assert set(log.requests) == {path.resolve().as_uri()}


def test_rows_carry_what_an_expert_reads(venue: tuple[Project, Path]) -> None:
    project, path = venue
    doc = lxml.html.fromstring(path.read_bytes())
    rows = doc.xpath("//tr[@data-paper-id]")
    con = duckdb.connect(str(project.db), read_only=True)
    try:
        ranked = con.execute("select paper_id, title, status, pdf_url, abstract from "
                             "marts.paper_rankings").df().set_index("paper_id")
    finally:
        con.close()
    for tr in rows:
        expected = ranked.loc[tr.get("data-paper-id")]
        assert tr.xpath(".//*[@class='title']")[0].text_content() == to_text(expected["title"])
        assert tr.xpath(".//span[contains(@class, 'status')]")[0].text_content() == expected["status"]
        assert expected["pdf_url"] in tr.xpath(".//a/@href")
        assert tr.xpath(".//details[@class='abstract']/p")[0].text_content() == expected["abstract"]
        assert tr.xpath(".//details[@class='why']/span[@class='rationale']")
    hostile = [tr for tr in rows if "Machine" in tr.xpath(".//*[@class='title']")[0].text_content()]
    assert len(hostile) == 1
    title = hostile[0].xpath(".//*[@class='title']")[0].text_content()
    assert title == '<script>alert("t")</script> Huxley-Gödel Machine: MoE³ & α-Nets'
    assert hostile[0].xpath(".//details[@class='abstract']/p")[0].text_content() == HOSTILE_ABSTRACT
    assert hostile[0].xpath(".//span[@class='authors']")[0].text_content() == "; ".join(HOSTILE_AUTHORS)
    assert doc.xpath("//script") and len(doc.xpath("//script")) == 1
    assert doc.xpath("//@*[starts-with(name(), 'on')]") == []


def test_score_movement_between_two_snapshots(venue: tuple[Project, Path], tmp_path: Path) -> None:
    """A later snapshot of the same venue with lower ratings for a few papers: their rows show
    the mean rating before -> after, as marts.paper_score_history has it, and the category's
    movers list them; an unchanged paper shows no change."""
    project, _ = venue
    scratch = tmp_path / "moved"
    scratch.mkdir()
    shutil.copy(project.db, scratch / "warehouse.duckdb")
    moved = Project(scratch / "warehouse.duckdb", scratch, root=project.root)
    frame = pd.read_parquet(project.scratch / "venue.parquet")
    top = set(read(project.db, "select paper_id from marts.paper_rankings "
                               "where category_rank <= 5")["paper_id"])
    # two steps down the form's even scale (0, 2, ..., 10), so every rating stays valid
    changed = [i for i in frame.index if frame.at[i, "openreview_id"] in top
              and min(frame.at[i, "rating"]) >= 2]
    assert len(changed) >= 3
    for i in changed:
        frame.at[i, "rating"] = [r - 2 for r in frame.at[i, "rating"]]
    frame.to_parquet(scratch / "later.parquet")
    moved.paperrank("ingest", "file", str(scratch / "later.parquet"), "--venue", VENUE,
                    "--profile", "iclr2026", "--snapshot-at", "2030-01-01T00:00:00+00:00")
    dbt_build(moved)
    doc = lxml.html.fromstring(render(moved).read_bytes())
    history = read(moved.db, "select paper_id, previous_rating_mean, rating_mean from "
                             "marts.paper_score_history where is_latest_snapshot").set_index("paper_id")
    changed_ids = {frame.at[i, "openreview_id"] for i in changed}
    changed_titles = set()
    for tr in doc.xpath("//table[contains(@class, 'papers')]/tbody/tr[@data-paper-id]"):
        paper = tr.get("data-paper-id")
        cell = " ".join(tr.xpath("./td[@data-label='Rating']")[0].text_content().split())
        before, after = history.loc[paper, "previous_rating_mean"], history.loc[paper, "rating_mean"]
        if pd.isna(before) or before == after:  # an unchanged review is not recorded again
            assert paper not in changed_ids and cell in ("\u2013", f"{after:.2f} \u2192 {after:.2f} (+0.00)")
            continue
        change = after - before
        assert paper in changed_ids and abs(change + 2) < 1e-9, (paper, before, after)
        assert cell == f"{before:.2f} \u2192 {after:.2f} ({change:+.2f})", (paper, cell)
        changed_titles.add(tr.xpath(".//*[@class='title']")[0].text_content())
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


def test_without_script_the_page_reads_as_before(venue: tuple[Project, Path]) -> None:
    _, path = venue
    with open_page(path, javascript=False) as (page, log):
        assert page.locator("#tools").is_hidden()
        assert page.locator("input.pick").first.is_hidden()
        assert page.locator("tr[data-paper-id]").first.is_visible()
        page.locator("details.abstract summary").first.click()
        assert page.locator("details.abstract p").first.is_visible()
    assert log.page_errors == []


# -- picks: tick, note, name, download, reload, import, rebuild --------------------------------
def test_picks_round_trip(venue: tuple[Project, Path]) -> None:
    project, path = venue
    with open_page(path) as (page, log):
        rows = page.locator("section.category").first.locator("tr[data-paper-id]")
        first, second = rows.nth(0), rows.nth(3)
        ids = [first.get_attribute("data-paper-id"), second.get_attribute("data-paper-id")]
        category = first.get_attribute("data-category")
        assert page.locator("#download-picks").is_disabled()
        first.locator("input.pick").check()
        second.locator("input.pick").check()
        second.locator("textarea.pick-note").fill(HOSTILE_NOTE)
        page.fill("#expert-name", 'Bad, "name" <b>')
        assert page.locator("#download-picks").is_disabled()
        assert page.locator("#expert-name-error").is_visible()
        page.fill("#expert-name", EXPERT)
        assert page.locator("#download-picks").is_enabled()
        count = page.locator(f".pick-count[data-category='{category}']")
        assert count.text_content() == "2"
        with page.expect_download() as download_info:
            page.click("#download-picks")
        download = project.scratch / "picks.csv"
        download_info.value.save_as(download)
        page.reload()
        assert page.locator("input.pick:checked").count() == 2
        assert page.input_value("#expert-name") == EXPERT
        assert second.locator("textarea.pick-note").input_value() == HOSTILE_NOTE
        assert count.text_content() == "2"
    assert log.console == [] and log.page_errors == [] and log.dialogs == []
    assert {u for u in log.requests if not u.startswith("blob:")} == {path.resolve().as_uri()}

    text = download.read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["paper_id", "category", "selected_by", "note"]
    by_id = {r[0]: r for r in rows[1:]}
    assert set(by_id) == set(ids)
    assert by_id[ids[1]] == [ids[1], category, EXPERT, "'" + HOSTILE_NOTE]  # a formula as text
    assert by_id[ids[0]][3] == ""

    seed = project.root / "seeds" / "expert_selections.csv"
    picks = ["picks", "import", str(download), "--db", str(project.db), "--seed", str(seed)]
    result = project.run(str(Path(sys.executable).parent / "paperrank"), *picks)
    assert "picks taken: 2; not taken: 0" in result.stdout
    before = seed.read_bytes()
    again = project.run(str(Path(sys.executable).parent / "paperrank"), *picks)
    assert "unchanged (2 picks)" in again.stdout and seed.read_bytes() == before
    # the seed files each pick under its venue (from the download, or from the paper)
    downloaded = [r if len(r) == 5 else [VENUE, *r] for r in rows[1:]]
    assert list(csv.reader(io.StringIO(seed.read_text(encoding="utf-8"))))[1:] == sorted(
        downloaded, key=lambda r: (r[0], r[2], r[3], r[1]))

    dbt_build(project, "--select", "+expert_picks")
    con = duckdb.connect(str(project.db), read_only=True)
    try:
        marts = con.execute("select paper_id, selected_by, note, expert_count, rank_band "
                            "from marts.expert_picks order by paper_id").df()
    finally:
        con.close()
    assert sorted(marts["paper_id"]) == sorted(ids)
    assert set(marts["selected_by"]) == {EXPERT}
    assert "'" + HOSTILE_NOTE in marts["note"].tolist()
    assert marts["expert_count"].tolist() == [1, 1]

    page_path = render(project)
    doc = lxml.html.fromstring(page_path.read_bytes())
    listed = doc.xpath("//table[contains(@class, 'picks')]/tbody/tr")
    assert len(listed) == 2
    cells = [[" ".join(c.text_content().split()) for c in tr.xpath("./th|./td")] for tr in listed]
    assert all(c[6] == EXPERT and c[-1] == "1" for c in cells)
    assert " ".join(("'" + HOSTILE_NOTE).split()) in [c[7] for c in cells]
    bands = doc.xpath("//h3[@id='picks-bands']/following-sibling::table[1]/tbody/tr")
    counts = [[int(td.text_content()) for td in tr.xpath("./td")] for tr in bands]
    assert len(counts) == 1 and counts[0][-1] == 2 and sum(counts[0][:-1]) == 2
    marts_bands = marts["rank_band"].fillna("none").value_counts()
    assert counts[0][:-1] == [int(marts_bands.get(b, 0))
                              for b in ("secure", "borderline", "outside", "none")]
    assert "<script>alert(1)</script>" not in page_path.read_text(encoding="utf-8")


# -- accessibility -------------------------------------------------------------------------
def test_controls_are_labelled_and_reachable_by_keyboard(venue: tuple[Project, Path]) -> None:
    _, path = venue
    with open_page(path) as (page, log):
        unlabelled = page.evaluate("""() => [...document.querySelectorAll(
                'input, select, textarea, button')].filter(el => {
            const label = el.id && document.querySelector(`label[for="${el.id}"]`);
            const named = (el.getAttribute('aria-label') || '').trim() || (label && label.textContent.trim())
                || (el.tagName === 'BUTTON' && el.textContent.trim());
            return !named; }).map(el => el.outerHTML.slice(0, 80))""")
        assert unlabelled == []
        images = page.evaluate("() => [...document.images].filter(i => !i.alt).length")
        assert images == 0
        page.locator("body").focus()
        reached, outlines = [], []
        for _ in range(60):
            page.keyboard.press("Tab")
            state = page.evaluate("""() => { const el = document.activeElement;
                const name = el.classList.contains('pick') ? 'pick' : el.id || el.className || el.tagName;
                return [name, getComputedStyle(el).outlineStyle]; }""")
            reached.append(state[0])
            outlines.append(state[1])
            if state[0] == "pick":
                break
        for hook in ("paper-search", "band-filter", "expert-name"):
            assert hook in reached, reached
        assert "sort" in reached and "pick" in reached, reached
        assert all(o != "none" for o in outlines), list(zip(reached, outlines, strict=True))
        page.keyboard.press("Space")
        assert page.locator("input.pick:checked").count() == 1
    assert log.console == [] and log.page_errors == []


def test_phone_width_has_no_sideways_scroll(venue: tuple[Project, Path]) -> None:
    _, path = venue
    with open_page(path, width=390, height=844) as (page, log):
        widths = page.evaluate("() => [document.documentElement.scrollWidth, "
                               "document.documentElement.clientWidth]")
        assert widths[0] <= widths[1], widths
        page.emulate_media(media="print")
        breaks = page.eval_on_selector_all(
            "section.category", "s => s.map(e => getComputedStyle(e).breakBefore)")
        assert breaks and set(breaks) == {"page"}
    assert log.page_errors == []


# -- degenerate venues ---------------------------------------------------------------------
def one_paper(frame: pd.DataFrame, truth: pd.DataFrame):
    return frame.head(1), truth[truth["paper_id"].isin(frame.head(1)["openreview_id"])]


def identical_scores(frame: pd.DataFrame, truth: pd.DataFrame):
    for signal, score in (("rating", 6), ("confidence", 3), ("soundness", 3),
                          ("contribution", 3), ("presentation", 3)):  # on ICLR's scales
        frame[signal] = frame[signal].apply(lambda scores, s=score: [s] * len(scores))
    return frame, truth


@pytest.mark.parametrize("shape", [one_paper, identical_scores], ids=["one-paper", "identical"])
def test_degenerate_venues_render(shape, tmp_path_factory: pytest.TempPathFactory) -> None:
    scratch = tmp_path_factory.mktemp(f"degenerate_{shape.__name__}")
    root = copy_project(tmp_path_factory.mktemp(f"degenerate_project_{shape.__name__}"))
    project = build_venue(root, scratch, 60, shape)
    path = render(project)
    doc = lxml.html.fromstring(path.read_bytes())
    assert doc.xpath("//tr[@data-paper-id]")
    with open_page(path) as (page, log):
        page.fill("#paper-search", "zzzz-no-such-paper")
        assert visible_ids(page) == []
        assert page.locator(".no-match:visible").count() >= 1
        assert page.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 0)")
    assert log.console == [] and log.page_errors == []


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
    result = subprocess.run([sys.executable, "-c", "import paperrank.picks.cli"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
