"""The maps (paperrank.related.layout): deterministic, faithful, separating what the texts
separate, kept while the texts are unchanged.  No dbt here (test_related_dbt.py builds the marts).
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import numpy as np
import pytest
from project import rows
from sklearn.manifold import trustworthiness as sklearn_trustworthiness
from test_related import venue

from paperrank.related import compute, layout
from paperrank.related.refresh import refresh

# four disjoint vocabularies: a paper's text draws only from its own
VOCABULARIES = [
    "quantized attention kernel gpu inference latency throughput cache decoding memory",
    "robot manipulation grasping policy demonstration gripper arm locomotion teleoperation",
    "protein molecule ligand docking enzyme genome folding antibody chemistry",
    "convergence stochastic gradient nonconvex bound lemma theorem regret smoothness",
]
POSITIONS = "select layout_category, paper_id, x, y from derived.paper_layouts order by 1, 2"


def clustered_venue(db: Path, per_topic: int = 30) -> dict[str, int]:
    """A venue of papers built from VOCABULARIES (the topic of each paper id returned); the
    first two topics are labelled Physical AI (ranked), the rest Other."""
    rng = np.random.default_rng(7)
    papers, labels, topic_of = [], {}, {}
    for topic, words in enumerate(VOCABULARIES):
        vocabulary = words.split()
        for i in range(per_topic):
            paper_id = f"t{topic}-{i:02d}"
            text = " ".join(rng.choice(vocabulary, size=12))
            papers.append({"paper_id": paper_id, "title": " ".join(rng.choice(vocabulary, size=3)),
                           "abstract": text})
            labels[paper_id] = "Physical AI" if topic < 2 else "Other"
            topic_of[paper_id] = topic
    venue(db, "Clusters", papers, labels)
    return topic_of


def test_disjoint_vocabularies_land_in_separate_regions(tmp_path):
    db = tmp_path / "w.duckdb"
    topic_of = clustered_venue(db)
    refresh(db, taxonomy="icml2026", say=lambda line: None)
    quality = {c: (n, t) for c, n, t in rows(db, "select layout_category, papers, trustworthiness "
                                                "from derived.layout_quality")}
    assert {c: n for c, (n, _) in quality.items()} == {"": 120, "Physical AI": 60}
    print(f"trustworthiness: venue {quality[''][1]:.4f}, Physical AI {quality['Physical AI'][1]:.4f}")
    assert all(t >= 0.9 for _, t in quality.values())
    for category, expected in (("", 4), ("Physical AI", 2)):
        placed = [(p, x, y) for c, p, x, y in rows(db, POSITIONS) if c == category]
        assert len(placed) == 30 * expected
        xy = np.array([(x, y) for _, x, y in placed])
        assert xy.min() >= 0 and xy.max() <= 1
        topics = np.array([topic_of[p] for p, _, _ in placed])
        centres = np.array([xy[topics == t].mean(axis=0) for t in range(expected)])
        # every paper lies nearer its own topic's centre than any other topic's
        nearest = np.argmin(((xy[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2), axis=1)
        assert (nearest == topics).all(), category
        # and the regions do not overlap: each topic's spread is smaller than the gaps between them
        spread = max(np.linalg.norm(xy[topics == t] - centres[t], axis=1).max() for t in range(expected))
        gaps = min(np.linalg.norm(centres[a] - centres[b]) for a in range(expected) for b in range(a))
        assert spread < gaps, category


def test_the_layout_rebuilt_is_identical_to_the_byte(tmp_path):
    db = tmp_path / "w.duckdb"
    clustered_venue(db)
    refresh(db, taxonomy="icml2026", say=lambda line: None)
    first = rows(db, POSITIONS)
    again = refresh(db, taxonomy="icml2026", say=lambda line: None)
    assert not any(r.computed for r in again)
    con_rows = rows(db, "select count(*) from derived.computations where part = 'layouts'")
    assert con_rows == [(1,)]
    con = duckdb.connect(str(db))
    con.execute("delete from derived.computations where part = 'layouts'")
    con.close()
    assert [r.part for r in refresh(db, taxonomy="icml2026", say=lambda line: None) if r.computed] == ["layouts"]
    second = rows(db, POSITIONS)
    assert [(c, p, float(x).hex(), float(y).hex()) for c, p, x, y in second] == \
        [(c, p, float(x).hex(), float(y).hex()) for c, p, x, y in first]
    # and in memory, on the same vectors, twice
    points = np.random.default_rng(3).normal(size=(300, 20))
    assert layout.lay_out(points).xy.tobytes() == layout.lay_out(points).xy.tobytes()


def test_unchanged_texts_compute_no_map(tmp_path, monkeypatch):
    db = tmp_path / "w.duckdb"
    clustered_venue(db, per_topic=10)
    refresh(db, taxonomy="icml2026", say=lambda line: None)

    def refuse(*args, **kwargs):
        raise AssertionError("a map was computed again for unchanged texts")

    monkeypatch.setattr(compute, "layouts", refuse)
    monkeypatch.setattr(layout, "lay_out", refuse)
    again = refresh(db, taxonomy="icml2026", say=lambda line: None)
    assert {r.part: r.computed for r in again}["layouts"] is False
    # an edited abstract: the maps are computed again (and here refused, so the refresh fails)
    con = duckdb.connect(str(db))
    con.execute("update raw.papers set abstract = 'robot grasping' where paper_id = 't0-00'")
    con.close()
    with pytest.raises(AssertionError, match="computed again"):
        refresh(db, taxonomy="icml2026", say=lambda line: None)


def test_trustworthiness_is_sklearns_and_its_sample_estimates_it(monkeypatch):
    rng = np.random.default_rng(11)
    points = rng.normal(size=(400, 12))
    xy = rng.normal(size=(400, 2)) + points[:, :2]  # partly faithful
    exact = sklearn_trustworthiness(points, xy, n_neighbors=5)
    assert layout.trustworthiness(points, xy, 5) == pytest.approx(exact, abs=1e-9)
    monkeypatch.setattr(layout, "EXACT_UP_TO", 100)
    monkeypatch.setattr(layout, "SAMPLE_QUERIES", 200)
    assert layout.trustworthiness(points, xy, 5) == pytest.approx(exact, abs=0.02)
    with pytest.raises(ValueError, match="more than 10 papers"):
        layout.trustworthiness(points[:10], xy[:10], 5)


def test_tiny_and_textless_maps_are_well_defined():
    assert layout.lay_out(np.zeros((0, 5))).xy.shape == (0, 2)
    one = layout.lay_out(np.ones((1, 5)))
    assert one.xy.tolist() == [[0.5, 0.5]] and one.trustworthiness is None
    three = layout.lay_out(np.eye(3))
    assert three.xy.shape == (3, 2) and three.xy.min() >= 0 and three.xy.max() <= 1
    same = layout.lay_out(np.tile(np.arange(5.0), (8, 1)))  # identical texts: one place, no NaN
    assert (same.xy == 0.5).all()
    blank = layout.lay_out(np.zeros((20, 0)))  # no latent space: every paper in one place
    assert (blank.xy == 0.5).all()
