"""Related papers, sub-themes and the label audit (paperrank.related), computed in Python.

On the real ICLR 2026 data: the related papers reach the issue's measures (0.80 same LLM
category, 0.40 same primary area, 0.60 shares a keyword), 5 per paper, and a refresh of
unchanged papers computes nothing while a recomputation gives identical rows. Degenerate venues
(one paper, identical abstracts, empty abstracts, a category of 2 papers) give well-defined
rows. No dbt here (test_related_dbt.py builds the marts).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from project import ICLR, rows, warehouse_copy

from paperrank.cli import run as paperrank
from paperrank.core.loads import Batch, write_batch
from paperrank.core.warehouse import connect
from paperrank.related.measures import measure
from paperrank.related.refresh import refresh

RELATED = "select venue, paper_id, related_rank, related_paper_id, similarity from derived.paper_related"


def frame(db: Path, sql: str) -> pd.DataFrame:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).df()
    finally:
        con.close()


@pytest.mark.e2e  # the whole real venue: 5,358 papers, over a minute of two cores
def test_iclr2026_related_papers_reach_the_measures_and_repeat(iclr_loaded, tmp_path, capsys):
    project = warehouse_copy(iclr_loaded, tmp_path)
    first = refresh(project.db, taxonomy="iclr2026")
    assert [(r.part, r.computed) for r in first] == [("related", True), ("subthemes", True), ("layouts", True),
                                                   ("audit", True)]
    related = frame(project.db, RELATED + " order by paper_id, related_rank")
    papers = pd.read_parquet(ICLR / "accepted_papers.parquet",
                             columns=["openreview_id", "primary_area", "keywords"])
    peer = pd.read_parquet(ICLR / "peer_llm_labels.parquet", columns=["openreview_id", "llm_category"])
    assert related.groupby("paper_id").size().eq(5).all() and related.paper_id.nunique() == len(papers)
    found = measure(list(zip(related.paper_id, related.related_paper_id, strict=True)),
                    dict(zip(peer.openreview_id, peer.llm_category, strict=True)),
                    dict(zip(papers.openreview_id, papers.primary_area, strict=True)),
                    {p: list(k) for p, k in zip(papers.openreview_id, papers.keywords, strict=True)})
    print(f"ICLR 2026 related papers: {found}")
    assert found.same_category >= 0.80
    assert found.same_primary_area >= 0.40
    assert found.shares_keyword >= 0.60
    # the maps: the venue's and every ranked category's at least 0.90 trustworthy
    maps = rows(project.db, "select layout_category, papers, trustworthiness from derived.layout_quality")
    print(f"ICLR 2026 maps' trustworthiness: {sorted((t, c or '(venue)') for c, _, t in maps)}")
    assert len(maps) == 7 and all(t >= 0.90 for _, _, t in maps)
    assert dict((c, n) for c, n, _ in maps)[""] == len(papers)

    # a refresh of unchanged papers computes nothing and keeps every row
    computed_at = rows(project.db, "select part, computed_at from derived.computations order by 1")
    again = refresh(project.db, taxonomy="iclr2026")
    assert not any(r.computed for r in again)
    assert rows(project.db, "select part, computed_at from derived.computations order by 1") == computed_at
    # the same inputs computed again give the same rows, to the last bit
    con = duckdb.connect(str(project.db))
    con.execute("delete from derived.computations where part = 'related'")
    con.close()
    assert [r.part for r in refresh(project.db, taxonomy="iclr2026") if r.computed] == ["related"]
    pd.testing.assert_frame_equal(frame(project.db, RELATED + " order by paper_id, related_rank"), related)

    # sub-themes: every paper of a ranked category in exactly one, 1 = the largest
    themes = frame(project.db, "select * from derived.category_subthemes")
    members = frame(project.db, "select * from derived.paper_subthemes")
    assert members.paper_id.is_unique
    counts = members.groupby(["category", "subtheme"]).size()
    assert counts.to_dict() == themes.set_index(["category", "subtheme"]).paper_count.to_dict()
    for _, category in themes.groupby("category"):
        assert category.sort_values("subtheme").paper_count.is_monotonic_decreasing
        assert 1 <= len(category) <= 8 and category.subtheme_label.str.len().gt(0).all()
    # the audit: one row per labelled paper, a probability for each
    audit = frame(project.db, "select * from derived.label_audit")
    assert len(audit) == len(papers) and audit.audit_confidence.between(0, 1).all()


def venue(db: Path, name: str, papers: list[dict], labels: dict[str, str], taxonomy: str = "icml2026") -> None:
    """Write a venue's accepted papers and their labels (model "truth") into `db`."""
    now = datetime(2026, 1, 1, tzinfo=UTC)
    con = connect(db)
    try:
        write_batch(con, Batch(kind="test", source=f"tests:{name}", snapshot_at=now, records_read=len(papers),
                               papers=[{"venue": name, "primary_area": "other", "keywords": [], "status": "Poster",
                                        "is_accepted": True, **p} for p in papers],
                               labels=[{"paper_id": p, "taxonomy": taxonomy, "category": c, "model": "truth",
                                        "source": "tests", "labeled_at": now} for p, c in labels.items()]))
    finally:
        con.close()


def related_of(db: Path, name: str) -> dict[str, list[tuple[str, float]]]:
    found: dict[str, list[tuple[str, float]]] = {}
    for paper, _, neighbour, similarity in rows(db, "select paper_id, related_rank, related_paper_id, similarity "
                                                    f"from derived.paper_related where venue = '{name}' "
                                                    "order by paper_id, related_rank"):
        found.setdefault(paper, []).append((neighbour, similarity))
    return found


TOPICS = ["Quantized attention kernels for fast language model inference on GPUs.",
          "Robot manipulation policies learned from human demonstrations in the real world.",
          "Protein structure prediction and molecule design with diffusion models.",
          "Convergence rates of stochastic gradient descent for nonconvex objectives."]


def test_degenerate_venues(tmp_path):
    db = tmp_path / "w.duckdb"
    # one paper: nothing is related to it; its category has one sub-theme
    venue(db, "One", [{"paper_id": "one-1", "title": "Alone", "abstract": TOPICS[0]}], {"one-1": "AI Systems"})
    # identical abstracts: every similarity is 1, ties broken by paper id
    venue(db, "Same", [{"paper_id": f"same-{i}", "title": "Same title", "abstract": TOPICS[1]} for i in range(8)],
          {f"same-{i}": "Physical AI" for i in range(8)})
    # empty abstracts: related by title alone; a paper with no text at all relates to nothing
    titles = ["Quantized attention kernels", "Robot grasping policies"]
    venue(db, "Empty", [{"paper_id": f"empty-{i}", "title": titles[i % 2], "abstract": ""} for i in range(4)]
          + [{"paper_id": "empty-x", "title": "", "abstract": None}],
          {f"empty-{i}": "AI Systems" for i in range(4)})
    # a category of 2 papers among others: one sub-theme of both
    venue(db, "Two", [{"paper_id": f"two-{i}", "title": f"Paper {i}", "abstract": TOPICS[i % 4] + f" Variant {i}."}
                      for i in range(30)],
          {f"two-{i}": ("Physical AI" if i in (1, 5) else "Other") for i in range(30)})
    results = refresh(db, taxonomy="icml2026", say=lambda line: None)
    assert all(r.computed for r in results)

    assert related_of(db, "One") == {}
    same = related_of(db, "Same")
    assert same["same-0"] == [(f"same-{i}", 1.0) for i in range(1, 6)]
    assert same["same-5"] == [(f"same-{i}", 1.0) for i in (0, 1, 2, 3, 4)]
    empty = related_of(db, "Empty")
    assert "empty-x" not in empty and all("empty-x" not in [n for n, _ in v] for v in empty.values())
    assert empty["empty-0"][0] == ("empty-2", 1.0)  # the same title's other paper first
    assert empty["empty-3"][0] == ("empty-1", 1.0)
    two = related_of(db, "Two")
    assert all(len(v) == 5 and all(0 < s <= 1 for _, s in v) for v in two.values())

    themes = rows(db, "select venue, category, subtheme, paper_count from derived.category_subthemes "
                      "order by 1, 2, 3")
    assert ("One", "AI Systems", 1, 1) in themes
    assert ("Same", "Physical AI", 1, 8) in themes
    assert ("Two", "Physical AI", 1, 2) in themes
    assert [t for t in themes if t[0] == "Two"] == [("Two", "Physical AI", 1, 2)]  # Other is not ranked
    assert rows(db, "select paper_id, subtheme from derived.paper_subthemes where venue = 'Two' order by 1") == [
        ("two-1", 1), ("two-5", 1)]
    # too few labels to learn from (one category): no audit rows, the computation recorded
    assert rows(db, "select count(*) from derived.label_audit where venue in ('One', 'Same')") == [(0,)]


def test_new_labels_recompute_the_subthemes_not_the_related_papers(tmp_path):
    db = tmp_path / "w.duckdb"
    papers = [{"paper_id": f"p{i}", "title": f"Paper {i}", "abstract": TOPICS[i % 4]} for i in range(12)]
    venue(db, "V", papers, {f"p{i}": "Other" for i in range(12)})
    refresh(db, taxonomy="icml2026", say=lambda line: None)
    later = datetime(2026, 2, 1, tzinfo=UTC)
    con = connect(db)
    write_batch(con, Batch(kind="test", source="tests:relabel", snapshot_at=later, records_read=1, labels=[
        {"paper_id": "p1", "taxonomy": "icml2026", "category": "Physical AI", "model": "truth",
         "source": "tests", "labeled_at": later}]))
    con.close()
    again = refresh(db, taxonomy="icml2026", say=lambda line: None)
    assert {r.part: r.computed for r in again} == {"related": False, "subthemes": True, "layouts": True,
                                                   "audit": True}
    assert rows(db, "select paper_id, category from derived.paper_subthemes") == [("p1", "Physical AI")]


def test_related_command_refuses_a_wrong_setting(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PAPERRANK_DB", str(tmp_path / "w.duckdb"))
    venue(tmp_path / "w.duckdb", "V", [{"paper_id": "p1", "title": "T", "abstract": "A"}], {})
    for argv, message in ((["--related-papers", "0"], "--related-papers: must be a whole number >= 1"),
                          (["--related-papers", "5; drop table raw.papers"], "--related-papers: must be"),
                          (["--taxonomy", "icml2062"], "unknown taxonomy"),
                          (["--venue", "{{ env_var('X') }}"], "--venue must not contain a template"),
                          (["--venue", "Nowhere"], "venue 'Nowhere' has no accepted papers")):
        code = paperrank(["related", *argv])
        assert code == 2, argv
        assert message in capsys.readouterr().err, argv
    assert rows(tmp_path / "w.duckdb", "select count(*) from raw.papers") == [(1,)]


@pytest.mark.parametrize("k", [1, 3])
def test_related_papers_setting_sets_the_rows_per_paper(tmp_path, k):
    db = tmp_path / "w.duckdb"
    venue(db, "V", [{"paper_id": f"p{i}", "title": f"Paper {i}", "abstract": TOPICS[i % 4]} for i in range(9)], {})
    refresh(db, related_papers=k, say=lambda line: None)
    assert {len(v) for v in related_of(db, "V").values()} == {k}
    assert rows(db, "select related_papers from derived.computations where part = 'related'") == [(k,)]
