"""The experts' report (`paperrank report`): rendered from real warehouses built by the real
loaders and dbt, checked against the marts, and opened in headless Chromium.

Two warehouses: the real ICLR 2026 data (the session's shared build), and the session's hostile
venue (`hostile_built`, tests/python/hostile_venue.py: hostile titles, keywords, rationales and
links, a second label set), here with recorded picks and stand-ins for a few marts, made from
the venue's own rankings. Copies of that build take every shape a build's parts give the
published warehouse (the ranking alone, some extras, every extra with the related-papers marts:
tests/python/report_marts.py).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from browser import open_page
from hostile_venue import (
    SHORTLIST_KEYWORDS,
    SHORTLIST_RATIONALE,
    SHORTLIST_TITLES,
    VENUE,
    shortlisted,
)
from project import REPO, Project, warehouse_copy
from project import query as read
from report_marts import EXTRAS, add_related_marts, keep_parts, split_parts
from report_pages import page, paper_rows, render_pages, section_name, shortlist_tables, text

from paperrank.core.errors import PaperrankError
from paperrank.report import render as report_render
from paperrank.report.latex import to_text
from paperrank.report.marts import PARTS
from paperrank.report.pages import write_reports
from paperrank.report.quota import parse_quota

pytestmark = pytest.mark.e2e

# kept after the run for a person to look at; never inside output/report, the published report
SCREENSHOTS = REPO / "output" / "screenshots"
BELOW = 10
HOSTILE_NOTE = '<b onmouseover="alert(1)">bold?</b> & <a href="javascript:alert(2)">link</a>'


def rank_sets_of(db: Path) -> pd.DataFrame:
    """Each paper's rank set as the build holds it: marts.paper_rank_sets, or (a build from
    before the split) paper_rank_uncertainty's columns."""
    tables = set(read(db, "select table_name from information_schema.tables "
                          "where table_schema = 'marts'")["table_name"])
    table = "paper_rank_sets" if "paper_rank_sets" in tables else "paper_rank_uncertainty"
    return read(db, f"select paper_id, marginal_lower, marginal_upper, is_possibly_top_n, "
                    f"is_certainly_top_n from marts.{table}").set_index("paper_id")


def category_facts_of(db: Path) -> pd.DataFrame:
    """Each category's stability and rank-set counts, wherever the build keeps them."""
    tables = set(read(db, "select table_name from information_schema.tables "
                          "where table_schema = 'marts'")["table_name"])
    stability = read(db, "select * from marts.category_rank_stability").set_index("category")
    if "category_rank_sets" in tables:
        sets = read(db, "select * exclude (venue) from marts.category_rank_sets").set_index("category")
        stability = stability.join(sets)
    return stability


# -- the ICLR 2026 build (read-only) ---------------------------------------------------------
@pytest.fixture(scope="module")
def iclr(iclr_built: Project, tmp_path_factory: pytest.TempPathFactory) -> tuple[Project, Path]:
    """The page of the session's shared ICLR 2026 build (conftest.py), rendered in-process into
    a folder of this module's own (the report opens the warehouse read-only)."""
    project = iclr_built.in_scratch(tmp_path_factory.mktemp("report_iclr"))
    return project, render_pages(project.db, project.scratch / "report")["ICLR 2026"]


@pytest.fixture(scope="module")
def iclr_every_part(iclr_built: Project, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ICLR 2026 page of the published build with every part, the related papers (5 a
    paper), sub-themes and label audit as `paperrank rank` computed them: the page at its full
    weight."""
    scratch = tmp_path_factory.mktemp("report_iclr_parts")
    extras = read(iclr_built.published, "select extras from marts.build_settings")["extras"][0]
    assert extras == ",".join(EXTRAS), extras
    return render_pages(iclr_built.published, scratch / "report")["ICLR 2026"]


def check_shortlists(db: Path, path: Path, venue: str | None = None) -> None:
    where = f"where venue = '{venue}'" if venue else ""
    rankings = read(db, "select category, category_rank, paper_id, title, forum_url, is_top_n, "
                        f"category_size from marts.paper_rankings {where} order by category, category_rank")
    tables = shortlist_tables(page(path))
    assert sorted(tables) == sorted(rankings["category"].unique())
    for category, expected in rankings.groupby("category"):
        top = int(expected["is_top_n"].sum())
        expected = expected.head(top + BELOW)
        rows = tables[category]
        assert [r["rank"] for r in rows] == expected["category_rank"].tolist()
        assert [r["paper_id"] for r in rows] == expected["paper_id"].tolist()
        assert [r["pid"] for r in rows] == expected["paper_id"].tolist()
        assert [r["is_top"] for r in rows] == expected["is_top_n"].tolist()
        assert sum(r["is_top"] for r in rows) == min(30, int(expected["category_size"].iloc[0]))
        for row, (_, paper) in zip(rows, expected.iterrows(), strict=True):
            assert row["title"] == to_text(paper["title"])  # the title as read, LaTeX turned to text
            if paper["forum_url"].startswith("https://"):
                assert row["href"] == paper["forum_url"]
            else:
                assert row["href"] is None


def table_after(doc, heading_id: str) -> list[list[str]]:
    table = doc.xpath(f"//*[@id='{heading_id}']/following-sibling::table[1]")[0]
    return [[text(c) for c in tr.xpath("./th|./td")] for tr in table.xpath("./tbody/tr")]


def number(cell: str) -> int:
    return int(cell.replace(",", ""))


def check_counts(db: Path, path: Path, venue: str | None = None) -> None:
    doc = page(path)
    where = f"where venue = '{venue}'" if venue else ""
    summary = read(db, "select category, accepted_papers, ranked_papers, overridden_papers "
                       f"from marts.category_summary {where}")
    shown = {row[0]: row for row in table_after(doc, "per-category")}
    assert sorted(shown) == sorted(summary["category"])
    for _, row in summary.iterrows():
        cells = shown[row["category"]]
        assert [number(c) for c in cells[2:5]] == [
            row["accepted_papers"], row["ranked_papers"], row["overridden_papers"]]
    excluded = read(db, f"select exclusion_reason, count(*) as n from marts.excluded_papers {where} "
                        "group by all")
    shown = {row[0]: number(row[1]) for row in table_after(doc, "excluded")}
    assert shown == dict(zip(excluded["exclusion_reason"], excluded["n"], strict=True))
    cards = [number(text(b)) for b in doc.xpath("//ul[@class='cards']/li/span[@class='big']")]
    totals = read(db, f"select (select count(*) from marts.paper_rankings {where}) as ranked, "
                      f"(select count(*) from marts.excluded_papers {where}) as excluded").iloc[0]
    assert cards[:3] == [totals["ranked"] + totals["excluded"], totals["ranked"], totals["excluded"]]


def test_iclr_shortlists_match_the_marts(iclr: tuple[Project, Path]) -> None:
    project, path = iclr
    assert path.name == "iclr-2026.html"
    check_shortlists(project.db, path)


def test_iclr_counts_match_the_marts(iclr: tuple[Project, Path]) -> None:
    project, path = iclr
    check_counts(project.db, path)
    doc = page(path)
    assert len(doc.xpath("//section[contains(@class, 'category')]")) == 6
    # dbt build makes the uncertainty marts and the build's settings: the page shows both
    assert "P(top 30)" in path.read_text(encoding="utf-8")
    assert "not recorded (no marts.build_settings)" not in text(doc)
    assert "article_2026" in text(doc) and "iclr2026" in text(doc)


def test_iclr_rows_show_how_sure_each_place_is(iclr: tuple[Project, Path]) -> None:
    """Each row's bar is its P(top 30), its number beside it, its Monte Carlo error in the
    tooltip; the details panel has the rank interval and the band, all as the mart says."""
    project, path = iclr
    uncertainty = read(project.db, "select paper_id, p_top_n, p_top_n_se, rank_p05, rank_p95, "
                                   "rank_band from marts.paper_rank_uncertainty").set_index("paper_id")
    for rows in shortlist_tables(page(path)).values():
        for row in rows:
            expected = uncertainty.loc[row["paper_id"]]
            p = float(expected["p_top_n"])
            assert row["sure"] == f"{p:.2f}"
            assert row["bar"] == [f"fill w-{round(p * 20) * 5} band-{expected['rank_band']}"]
            assert row["sure_tooltip"] == (f"P(top 30) = {p:.3f}, Monte Carlo error "
                                           f"±{float(expected['p_top_n_se']):.3f}")
            assert row["details"]["Rank, 90% of redraws"] == (
                f"{expected['rank_p05']:.0f}\u2013{expected['rank_p95']:.0f}")
            assert row["details"]["Band"] == expected["rank_band"] == row["band"]


def test_iclr_rank_sets_marked_as_the_marts_say(iclr: tuple[Project, Path]) -> None:
    """Each row's rank confidence set and its certainly / possibly mark, and each section's
    counts, are the marts'; the header states the coverage the build recorded and
    what the guarantee covers."""
    project, path = iclr
    sets = rank_sets_of(project.db)
    facts = category_facts_of(project.db)
    coverage = read(project.db, "select min(rank_sets_coverage) as c from marts.build_settings")["c"][0]
    label = f"{round(coverage * 100, 2):g}%"
    doc = page(path)
    marks: Counter[str | None] = Counter()
    for section in doc.xpath("//section[contains(@class, 'category')]"):
        category = section_name(section)
        for row in paper_rows(section):
            expected = sets.loc[row["paper_id"]]
            certainly, possibly = (bool(expected[c]) if pd.notna(expected[c]) else False
                                   for c in ("is_certainly_top_n", "is_possibly_top_n"))
            mark = "certainly" if certainly else "possibly" if possibly else None
            cell = f"{int(expected['marginal_lower'])}\u2013{int(expected['marginal_upper'])}"
            cell += f" {mark} top 30" if mark else ""
            assert row["details"][f"Rank set {label}"] == cell, (category, row["rank"])
            assert ("certainly top 30" in row["tags"]) == certainly  # only the rare mark in the row
            marks[mark] += 1
        words = text(section.xpath("./div[@class='words']")[0])
        counts = facts.loc[category]
        certain, possible = int(counts["certainly_top_n_papers"]), int(counts["possibly_top_n_papers"])
        assert (f"Rank sets ({label}): {certain:,} paper{'s' * (certain != 1)} certainly in the top 30, "
                f"{possible:,} paper{'s' * (possible != 1)} possibly.") in words, words
        assert "a bias all reviewers share is not covered" in words
    # on ICLR 2026 no paper is certainly in a top 30, and nearly every paper possibly is (the
    # reviews are that noisy): the header says so once, rather than each row
    assert marks["certainly"] == facts["certainly_top_n_papers"].sum()
    assert marks["possibly"] > 0


def test_iclr_category_headers_in_words(iclr: tuple[Project, Path]) -> None:
    """Each category's header says in words how many papers, how stable its top 30 is (the
    expected overlap of a redraw, the papers in it in at least 90% of redraws) and what its
    reliability means; the marts' column names appear only in the details, each with a plain
    label and its definition as a tooltip."""
    project, path = iclr
    facts = category_facts_of(project.db)
    doc = page(path)
    for section in doc.xpath("//section[contains(@class, 'category')]"):
        category = section_name(section)
        row = facts.loc[category]
        words = text(section.xpath("./div[@class='words']")[0])
        assert words.startswith(f"{int(row['category_size']):,} papers ranked; the shortlist is the top 30")
        secure = int(row["secure_papers"])
        assert (f"if the reviews were drawn again, about {row['expected_top_n_overlap']:.0f} of these 30 "
                f"would still be in the top 30; {secure} paper{'s' * (secure != 1)} "
                f"{'is' if secure == 1 else 'are'} in it in at least 90% of redraws.") in words
        assert f"Reliability {row['reliability']:.2f}: " in words
        assert (f"one more review per paper would make it "
                f"{row['reliability_with_one_more_review']:.2f}.") in words
        if row["reliability"] < 0.2:
            assert "read the top 30 as a pool to choose from" in words
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", words), words  # no column name in the words
        terms = section.xpath(".//details[@class='numbers']//dt")
        columns = {text(t.xpath("./code")[0]): t for t in terms}
        for column in ("expected_top_n_overlap", "secure_papers", "reliability",
                       "reliability_with_one_more_review", "possibly_top_n_papers"):
            term = columns[column]
            assert term.get("title") and text(term) != column  # a plain label and a tooltip
    # the rows' details: a plain label each, its meaning (and column) in the glossary
    glossary = {dd.get("data-k"): text(dd) for dd in doc.xpath("//dl[@id='glossary']/dd")}
    keys = set(doc.xpath("//dl[@class='numbers-row']/dt/@data-k"))
    assert keys and keys <= set(glossary), keys - set(glossary)


def test_iclr_page_is_small_and_self_contained(iclr: tuple[Project, Path]) -> None:
    project, path = iclr
    html = path.read_text(encoding="utf-8")
    assert path.stat().st_size <= 2_000_000  # the page's budget
    doc = page(path)
    sources = doc.xpath("//img/@src")
    assert sources and all(s.startswith("data:image/svg+xml,") for s in sources)
    assert not doc.xpath("//link|//iframe|//object|//embed|//script[@src]")
    assert len(doc.xpath("//script")) == 1  # the page's own, allowed by its hash
    assert all(img.get("alt") for img in doc.xpath("//img"))
    # no address but OpenReview's, outside the abstracts (whose text may cite a URL, as text)
    outside_abstracts = re.sub(r'<p class="abstract-text">.*?</p>', "", html, flags=re.S)
    assert re.search(r"https?://(?!openreview\.net/)", outside_abstracts.replace(
        "http://www.w3.org/", "")) is None
    assert all(h.startswith(("#", "https://openreview.net/")) for h in doc.xpath("//a/@href"))
    # the parts this build lacks, said once at the top (and nothing when it has them all)
    marts = set(read(project.db, "select table_name from information_schema.tables "
                                 "where table_schema = 'marts'")["table_name"])
    said = " ".join(text(p) for p in doc.xpath("//p[@id='build-parts']"))
    for part in PARTS:
        assert (part.lacking in said) == (part.marker not in marts and not (
            part.name == "rank_sets" and "marginal_lower" in read(
                project.db, "select * from marts.paper_rank_uncertainty limit 0").columns)), part


def test_iclr_with_related_papers_within_budget(iclr_every_part: Path) -> None:
    """ICLR 2026 with every part, 5 related papers a paper and the maps (the venue's 5,358
    papers and each category's): at most 2 MB."""
    assert iclr_every_part.stat().st_size <= 2_000_000
    doc = page(iclr_every_part)
    rows = [r for rows in shortlist_tables(doc).values() for r in rows]
    assert rows and all(len(r["related"]) == 5 for r in rows)
    maps = doc.xpath("//*[local-name()='svg'][contains(@class, 'paper-map')]")
    assert len(maps) == 1 + len(shortlist_tables(doc))
    ranked = number(text(doc.xpath("//ul[@class='cards']/li[2]/span")[0]))
    assert sum(len(m.xpath(".//*[local-name()='circle'][@data-p]")) for m in maps[1:]) == ranked


# -- the hostile venue ------------------------------------------------------------------------
def add_stand_in_marts(db: Path) -> None:
    """Build settings and rank uncertainty with hostile text in them, made from the venue's own
    rankings; three recorded picks of this venue and one of another venue (not shown here)."""
    con = duckdb.connect(str(db))
    try:
        con.execute("""
            create or replace table marts.build_settings as
            select 'build-fixture' as build_id, timestamptz '2026-11-30 10:00:00+00' as built_at,
                   'icml2026' as taxonomy, 'article_2026' as weight_set, 30 as top_n,
                   null::varchar as label_model, 'HOSTILE 2026' as venue,
                   0.40 as w_contribution_mean, 0.35 as w_rating_mean, 0.9 as rank_band_secure
        """)
        con.execute("""
            create or replace table marts.paper_rank_uncertainty as
            select venue, category, paper_id, category_rank,
                   greatest(1, category_rank - 1 - category_rank // 4) as rank_p05,
                   category_rank::double as rank_p50,
                   least(category_size, category_rank + 1 + category_rank // 4) as rank_p95,
                   category_rank::double as rank_mean,
                   case when category_rank <= 20 then 1.0
                        when category_rank <= 40 then (41 - category_rank) / 21.0
                        else 0.0 end as p_top_n,
                   0.01 as p_top_n_se,
                   case when category_rank <= 20 then 'secure'
                        when category_rank <= 40 then 'borderline'
                        else 'outside' end as rank_band,
                   'stand-in <i>bootstrap</i>' as uncertainty_method
            from marts.paper_rankings
        """)
        con.execute("""
            create or replace table marts.category_rank_stability as
            select venue, category, count(*) filter (where category_rank <= 20) as secure_papers,
                   22.5 as expected_top_n_overlap
            from marts.paper_rankings group by venue, category
        """)
        con.execute("drop table if exists marts.category_rank_sets")
        con.execute("drop table if exists marts.paper_rank_sets")
        con.execute("delete from marts.expert_picks")
        con.execute("""
            insert into marts.expert_picks
                (venue, paper_id, selected_category, selected_by, note, title, paper_category,
                 category_rank, category_size, local_top_overall, is_ranked, is_top_n,
                 is_category_match, flag_reason, is_flagged)
            select venue, paper_id, category, 'expert "A"', ?, title, category, category_rank,
                   category_size, local_top_overall, true, is_top_n, true,
                   case when not is_top_n then 'paper is ranked ' || category_rank
                        || ', outside the top 30' end, not is_top_n
            from marts.paper_rankings
            where venue = 'HOSTILE 2026' and category = 'Physical AI' and category_rank in (1, 35)
            union all
            select 'HOSTILE 2026', 'NOPE-404', 'Agentic AI', 'expert B', null, null, null, null,
                   null, null, false, false, false,
                   'paper is not an accepted paper of the warehouse', true
            union all
            select 'OTHER 2027', 'o-0000001', 'Agentic AI', 'expert C', 'other venue', 'Other paper',
                   'Agentic AI', 1, 10, 1.0, true, true, true, null, false
        """, [HOSTILE_NOTE])
    finally:
        con.close()


@pytest.fixture(scope="module")
def synthetic(hostile_built: Project,
              tmp_path_factory: pytest.TempPathFactory) -> tuple[Project, Path, dict[str, str]]:
    """A copy of the session's hostile venue (its seeds and models built with few replicates:
    the uncertainty marts the page reads are replaced by stand-ins here), its page, and the ids
    of the shortlist's hostile papers by kind."""
    project = warehouse_copy(hostile_built, tmp_path_factory.mktemp("report_synthetic"))
    add_stand_in_marts(project.db)
    return project, render_pages(project.db, project.scratch / "report")[VENUE], shortlisted(hostile_built)


def test_synthetic_shortlists_and_counts_match_the_marts(synthetic) -> None:
    project, path, _ = synthetic
    check_shortlists(project.db, path, VENUE)
    check_counts(project.db, path, VENUE)


def test_uncertainty_and_caterpillar(synthetic) -> None:
    project, path, _ = synthetic
    uncertainty = read(project.db, "select paper_id, rank_p05, rank_p95, p_top_n, rank_band "
                                   "from marts.paper_rank_uncertainty").set_index("paper_id")
    doc = page(path)
    for section in doc.xpath("//section[contains(@class, 'category')]"):
        for row in paper_rows(section):
            expected = uncertainty.loc[row["paper_id"]]
            assert row["details"]["Rank, 90% of redraws"] == (
                f"{expected['rank_p05']:.0f}\u2013{expected['rank_p95']:.0f}")
            assert row["sure"] == f"{expected['p_top_n']:.2f}"
            assert row["band"] == expected["rank_band"]
        alts = [img.get("alt") for img in section.xpath(".//img")]
        assert len(alts) == 3 and alts[2].startswith("Rank intervals")
        # no rank sets in this build: the header says nothing about them
        assert "Rank sets" not in text(section.xpath("./div[@class='words']")[0])
    assert "stand-in <i>bootstrap</i>" in text(doc)  # the method's name, as text


def test_build_settings_shown(synthetic) -> None:
    _, path, _ = synthetic
    doc = page(path)
    facts = dict(zip([text(d) for d in doc.xpath("//dl[@class='facts']/dt")],
                     [text(d) for d in doc.xpath("//dl[@class='facts']/dd")], strict=True))
    assert facts["Built"] == "2026-11-30 10:00 UTC"
    assert facts["Taxonomy"] == "icml2026"
    assert facts["Weight set"] == "article_2026"
    assert facts["Shortlist size"] == "top 30"


def test_audit_against_the_marts(synthetic) -> None:
    project, path, _ = synthetic
    doc = page(path)
    venue = f"venue = '{VENUE}'"  # the page is one venue's; the warehouse holds two
    agreement = read(project.db, "select count(*) as n, count(*) filter (where is_agreeing) as a "
                                 f"from marts.label_agreement where {venue}").iloc[0]
    assert agreement["n"] > 0
    audit = text(doc.xpath("//section[@id='audit']")[0])
    assert f"{agreement['a']:,} of {agreement['n']:,} papers get the same category" in audit
    assert "Against keywords-v1" in audit
    low = read(project.db, "select count(*) as n from marts.paper_rankings "
                           f"where label_confidence = 'low' and {venue}").iloc[0]["n"]
    assert low > 0 and f"{low:,} ranked papers carry a low-confidence label" in audit
    heat = doc.xpath("//section[@id='audit']//details//table")[0]
    cells = [number(text(td)) for td in heat.xpath("./tbody/tr/td")]
    accepted = read(project.db, f"select (select count(*) from marts.paper_rankings where {venue}) "
                                f"+ (select count(*) from marts.excluded_papers where {venue}) as n"
                    ).iloc[0]["n"]
    assert sum(cells) == accepted


def test_expert_picks_of_this_venue_with_rank_band_and_flag(synthetic) -> None:
    """The venue's recorded picks (marts.expert_picks where venue = the page's) in aggregate: each
    picked paper with how many experts picked it, its rank, its band (from
    paper_rank_uncertainty: expert_picks carries none) and its flag; who picked it and their
    notes stay off the page; a pick of another venue is not shown."""
    _, path, _ = synthetic
    rows = page(path).xpath("//section[@id='picks']//table[contains(@class, 'picks')]/tbody/tr")
    shown = [[text(c) for c in tr.xpath("./th|./td")] for tr in rows]
    assert len(shown) == 3
    by_id = {row[1].split()[-1]: row for row in shown}
    assert "o-0000001" not in by_id and "Other paper" not in text(page(path))
    assert by_id["NOPE-404"][6] == "flag paper is not an accepted paper of the warehouse"
    flagged = [r for r in shown if "outside the top 30" in r[6]]
    assert len(flagged) == 1 and flagged[0][4].startswith("35 /") and flagged[0][5] == "borderline"
    assert [r[2] for r in shown] == ["1", "1", "1"]
    assert "bold?" not in path.read_text(encoding="utf-8")  # the note, escaped or not


def test_hostile_text_stays_text(synthetic) -> None:
    project, path, hostile = synthetic
    html = path.read_text(encoding="utf-8")
    doc = page(path)
    assert html.lower().count("<script") == 1  # the page's own script, allowed by its hash
    assert doc.xpath("//script[@src]|//img[not(starts-with(@src, 'data:image/svg+xml,'))]"
                     "|//@*[starts-with(name(), 'on')]") == []
    assert all(href.startswith(("#", "https://")) for href in doc.xpath("//a/@href"))
    rows = {r["paper_id"]: r for rows in shortlist_tables(doc).values() for r in rows}
    for kind, paper_id in hostile.items():
        assert rows[paper_id]["title"] == to_text(SHORTLIST_TITLES[kind]), kind
        assert rows[paper_id]["rationale"] == SHORTLIST_RATIONALE
        assert rows[paper_id]["keywords"] == " · ".join(SHORTLIST_KEYWORDS)
    assert rows[hostile["quotes"]]["href"] is None  # the javascript: link is not a link
    assert "&lt;script&gt;alert(&#34;title&#34;)&lt;/script&gt;" in html


def test_same_build_gives_the_same_page(synthetic, tmp_path: Path) -> None:
    project, path, _ = synthetic
    first = path.read_bytes()
    again = render_pages(project.db, tmp_path / "again")[VENUE].read_bytes()
    assert again == first
    later = render_pages(project.db, tmp_path / "later", epoch="1767312000")[VENUE].read_text(encoding="utf-8")
    pattern = re.compile(r'<time id="generated-at"[^>]*>[^<]*</time>')
    assert pattern.sub("", later) == pattern.sub("", first.decode("utf-8"))
    assert later != first.decode("utf-8")


def test_cli_errors_name_the_problem(tmp_path: Path) -> None:
    # in this process: paperrank.cli.run is the command line's entry point, its exit code and
    # what it prints the same as a process of its own
    project = Project(tmp_path / "missing.duckdb", tmp_path)
    result = project.cli("report", "--db", str(project.db), check=False)
    assert result.returncode == 1
    assert f"no warehouse at {project.db}" in result.stderr
    duckdb.connect(str(project.db)).close()
    result = project.cli("report", "--db", str(project.db), "--pick-quota", "0", check=False)
    assert result.returncode == 2 and "--pick-quota (PICK_QUOTA): must be a whole number" in result.stderr
    for wrong in ("0", "1.5", "nan", "close"):  # the near-duplicate setting, before the warehouse
        result = project.cli("report", "--db", str(project.db), "--near-duplicate", wrong, check=False)
        assert result.returncode == 2, result.stderr
        assert "near-duplicate similarity must be a number above 0 and at most 1" in result.stderr
    result = project.cli("report", "--db", str(project.db), check=False)
    assert result.returncode == 1
    assert "has no marts.paper_rankings" in result.stderr


def test_pick_quota_is_a_checked_setting(synthetic, tmp_path: Path) -> None:
    """The quota reaches the page as its counter ("k of 7"); a quota that is not a whole number
    from 1 to 1000 is refused, naming what is allowed, before any page is written."""
    project, _, _ = synthetic
    for bad in ("0", "-1", "1001", "five", "5; rm -rf /", "2.5", ""):
        with pytest.raises(PaperrankError, match="must be a whole number from 1 to 1000"):
            parse_quota(bad)
    assert parse_quota(" 7 ") == 7
    for bad_value in (0, 1001, True, 2.5):
        with pytest.raises(PaperrankError, match="pick quota must be a whole number"):
            write_reports(project.db, tmp_path / "refused", quota=bad_value)  # type: ignore[arg-type]
    assert not (tmp_path / "refused").exists()
    doc = page(render_pages(project.db, tmp_path / "seven", quota=7)[VENUE])
    assert doc.xpath("//body/@data-quota") == ["7"]
    quota_lines = [text(p) for p in doc.xpath("//p[contains(@class, 'quota')]")]
    assert quota_lines and all(line == "Your picks here: 0 of 7" for line in quota_lines)


# -- a build's parts: every subset renders and says what it lacks --------------------------------
@pytest.fixture(scope="module")
def split(synthetic, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """The synthetic build in the split layout, every part built (build_settings.extras), the
    related-papers part's marts as stand-ins."""
    project, _, _ = synthetic
    copy = warehouse_copy(project, tmp_path_factory.mktemp("report_split"))
    con = duckdb.connect(str(copy.db))
    try:  # the stand-in build settings record the settings the words read
        con.execute("alter table marts.build_settings add column rank_sets_coverage double")
        con.execute("update marts.build_settings set rank_sets_coverage = 0.95")
        con.execute("""create table marts.paper_rank_sets as
            select venue, category, paper_id, category_rank, 1::bigint as marginal_lower,
                   least(category_size, category_rank * 3) as marginal_upper,
                   category_rank <= 40 as is_possibly_top_n, category_rank <= 2 as is_certainly_top_n,
                   'exact' as rank_set_method
            from marts.paper_rankings""")
        con.execute("""create table marts.category_rank_sets as
            select venue, category, 40::bigint as possibly_top_n_papers, 2::bigint as certainly_top_n_papers,
                   0.31 as reliability, 0.36 as reliability_with_one_more_review
            from marts.paper_rankings group by all""")
    finally:
        con.close()
    split_parts(copy.db)
    add_related_marts(copy.db, k=5)
    return copy


def parts_copy(split: Project, parts: tuple[str, ...], folder: Path) -> Path:
    copy = warehouse_copy(split, folder)
    keep_parts(copy.db, parts)
    return copy.db


@pytest.mark.parametrize("parts", [(), ("uncertainty",), ("uncertainty", "rank_sets", "picks"), EXTRAS],
                         ids=["ranking-alone", "uncertainty", "three-extras", "every-part"])
def test_every_set_of_parts_renders_and_says_what_it_lacks(split: Project, parts: tuple[str, ...],
                                                          tmp_path: Path) -> None:
    db = parts_copy(split, parts, tmp_path)
    path = render_pages(db, tmp_path / "report")[VENUE]
    doc = page(path)
    said = doc.xpath("//p[@id='build-parts']")
    whole = text(doc)
    if parts == EXTRAS:
        assert said == [] and "This build has" not in whole and "This build lacks" not in whole
    else:
        assert len(said) == 1 and whole.count("This build has") + whole.count("This build lacks") == 1
        recorded = ",".join(parts) or "none"
        assert text(said[0]).endswith(f"(built with EXTRAS={recorded}).")
    if not parts:
        assert text(said[0]).startswith(
            "This build has the ranking alone: no rank uncertainty (P(top N), rank intervals, "
            "bands, how stable each top N is); no rank confidence sets")
    if parts == ("uncertainty",):
        assert text(said[0]).startswith("This build lacks rank sets, outcomes, picks and related: ")
    rows = [r for rows in shortlist_tables(doc).values() for r in rows]
    assert rows
    # what each part shows is there exactly when the part is
    has = set(parts)
    assert all((r["sure"] is not None) == ("uncertainty" in has) for r in rows)
    assert all(("Rank set 95%" in r["details"]) == ("rank_sets" in has) for r in rows)
    assert all(bool(r["related"]) == ("related" in has) for r in rows)
    assert bool(doc.xpath("//button[contains(@class, 'subtheme')]")) == ("related" in has)
    assert bool(doc.xpath("//*[contains(@class, 'map-block')]")) == ("related" in has)
    assert len(doc.xpath("//p[@id='no-map']")) == (0 if "related" in has else 1)
    assert bool(doc.xpath("//section[@id='validity']")) == ("outcomes" in has)
    assert bool(doc.xpath("//table[contains(@class, 'picks')]")) == ("picks" in has)
    assert ("Not in this build (no marts.expert_picks" in whole) == ("picks" not in has)
    assert bool(doc.xpath("//select[@id='band-filter'][@disabled]")) == ("uncertainty" not in has)
    for section in doc.xpath("//section[contains(@class, 'category')]"):
        words = text(section.xpath("./div[@class='words']")[0])
        assert ("would still be in the top 30" in words) == ("uncertainty" in has)
        assert ("Rank sets (95%)" in words) == ("rank_sets" in has)
        assert ("Reliability 0.31" in words) == ("rank_sets" in has)
    if not parts:
        with open_page(path, width=390, height=844) as (browser_page, log):
            widths = browser_page.evaluate("[document.documentElement.scrollWidth, "
                                           "document.documentElement.clientWidth]")
            browser_page.fill("#paper-search", "planning")
            assert browser_page.locator("tr[data-paper-id]:not([hidden])").count() > 0
        assert widths[0] <= widths[1]
        assert log.console == [] and log.page_errors == []


def test_related_papers_subthemes_and_second_labels(split: Project, tmp_path: Path) -> None:
    """Each row's related papers are the mart's, best first, as links that jump to the paper's
    row (or, for a paper no list shows, to its OpenReview page); each category's sub-themes are
    chips with the mart's counts; a disputed label is marked in the row and explained."""
    path = render_pages(split.db, tmp_path / "report")[VENUE]
    doc = page(path)
    related = read(split.db, "select paper_id, related_rank, related_paper_id from marts.paper_related "
                             "order by paper_id, related_rank")
    expected = related.groupby("paper_id")["related_paper_id"].apply(list).to_dict()
    subthemes = read(split.db, "select category, subtheme, subtheme_label, paper_count "
                               f"from marts.category_subthemes where venue = '{VENUE}'")
    audit = read(split.db, "select paper_id, audit_category, is_disputed from marts.label_audit"
                 ).set_index("paper_id")
    anchors = set(doc.xpath("//tr[@data-paper-id]/@id"))
    jumped = outside = 0
    for section in doc.xpath("//section[contains(@class, 'category')]"):
        category = section_name(section)
        chips = {c.get("data-subtheme"): text(c) for c in section.xpath(".//button[contains(@class, 'subtheme')]")}
        mine = subthemes[subthemes["category"] == category]
        assert chips == {r.subtheme: f"{r.subtheme_label} {r.paper_count}" for r in mine.itertuples()}
        for row in paper_rows(section):
            assert [paper_id for paper_id, _, _ in row["related"]] == expected[row["paper_id"]]
            for _, href, _ in row["related"]:
                if href.startswith("#"):
                    assert href[1:] in anchors
                    jumped += 1
                else:
                    assert href.startswith("https://openreview.net/forum?id=")
                    outside += 1
            assert row["subtheme"] in chips
            disputed = bool(audit.loc[row["paper_id"], "is_disputed"])
            assert ("label disputed" in row["tags"]) == disputed
            assert row["audits"] and ("disputes this category" in row["audits"][0]) == disputed
    assert jumped and outside


def test_index_page_lists_venues_and_escapes(tmp_path: Path) -> None:
    """The index of several venues' pages: each title a link to its page with its build id and
    date, every string escaped; a page path that leaves the folder or names a scheme is refused."""
    entries = [
        report_render.IndexEntry("ICLR 2026", "iclr-2026.html", "build-1", pd.Timestamp("2026-12-01 10:00", tz="UTC")),
        report_render.IndexEntry('<script>alert("v")</script> & Co', "hostile-2026.html",
                                 '"><img src=x onerror=alert(1)>'),
        report_render.IndexEntry("Venue with space", "sub dir/venue #1.html"),
    ]
    path = report_render.write_index(entries, tmp_path)
    html = path.read_text(encoding="utf-8")
    doc = page(path)
    rows = [[text(c) for c in tr.xpath("./th|./td")] for tr in doc.xpath("//tbody/tr")]
    assert rows == [['<script>alert("v")</script> & Co', '"><img src=x onerror=alert(1)>', "\u2013"],
                    ["ICLR 2026", "build-1", "2026-12-01 10:00 UTC"],
                    ["Venue with space", "\u2013", "\u2013"]]
    assert doc.xpath("//a/@href") == ["hostile-2026.html", "iclr-2026.html", "sub%20dir/venue%20%231.html"]
    assert "<script" not in html.lower() and not doc.xpath("//img|//@*[starts-with(name(), 'on')]")
    assert "script-src 'none'" in doc.xpath("//meta[@http-equiv='Content-Security-Policy']/@content")[0]
    for bad in ("../escape.html", "/etc/passwd", "javascript:alert(1)", "https://example.org/x.html",
                "a/../b.html", "", "a//b.html"):
        with pytest.raises(PaperrankError, match="relative path below the index's folder"):
            report_render.write_index([report_render.IndexEntry("x", bad)], tmp_path / "bad")


# -- in a real browser ---------------------------------------------------------------------
def check_in_browser(path: Path, name: str) -> dict[str, object]:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with open_page(path) as (browser_page, log):
        state = browser_page.evaluate("""() => ({
            sections: [...document.querySelectorAll('main > section')].map(s => s.id),
            navigation: [...document.querySelectorAll('nav a')].map(a => a.getAttribute('href')),
            brokenImages: [...document.images].filter(i => !i.complete || i.naturalWidth === 0).length,
            images: document.images.length,
            titles: [...document.querySelectorAll('table.papers tbody th.c-paper')]
                .map(th => th.querySelector('.title').textContent),
        })""")
        browser_page.screenshot(path=str(SCREENSHOTS / f"{name}-first-screen.png"))
        first = state["sections"][1]
        browser_page.goto(path.resolve().as_uri() + f"#{first}")
        browser_page.screenshot(path=str(SCREENSHOTS / f"{name}-category.png"))
        browser_page.emulate_media(media="print")
        nav_hidden = browser_page.evaluate(
            "getComputedStyle(document.querySelector('nav')).display") == "none"
        pdf = browser_page.pdf(format="A4", landscape=True)
    assert log.console == [] and log.page_errors == [] and log.dialogs == []
    assert set(log.requests) == {path.resolve().as_uri()}
    # every plot loads (an SVG a hostile label had broken would not), though its <details> is shut
    assert state["brokenImages"] == 0 and state["images"] > 0
    assert state["sections"][0] == "overview" and state["sections"][-2:] == ["audit", "picks"]
    assert [f"#{s}" for s in state["sections"]] == state["navigation"]
    assert nav_hidden and pdf.startswith(b"%PDF")
    return state


def test_iclr_in_chromium(iclr: tuple[Project, Path]) -> None:
    _, path = iclr
    state = check_in_browser(path, "iclr-2026")
    # overview, the 6 categories, how far to trust the ranking (the ICLR 2026 outcomes: its
    # oral/poster tier), the classification audit and the picks
    assert len(state["sections"]) == 6 + 4
    assert "validity" in state["sections"]


def test_synthetic_in_chromium_hostile_text_is_text(synthetic) -> None:
    _, path, hostile = synthetic
    state = check_in_browser(path, "synthetic")
    titles = Counter(state["titles"])
    for title in SHORTLIST_TITLES.values():
        assert titles[to_text(title)] >= 1
