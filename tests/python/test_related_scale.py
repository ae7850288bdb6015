"""Related papers and maps of a large venue: the approximate candidate stage (an Annoy index above
Method.approximate_above papers) and the sampled layout (t-SNE of an even sample above
LayoutMethod.sample_above, the rest placed), each taken here on a small venue by lowering its
threshold.  No dbt: test_related.py and test_related_layout.py cover the venue-sized paths.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from sklearn.manifold import trustworthiness as sklearn_trustworthiness
from test_related_layout import VOCABULARIES

from paperrank.related import layout, neighbours
from paperrank.related.layout_method import LAYOUT_METHOD
from paperrank.related.method import METHOD
from paperrank.related.vectors import embed

PER_TOPIC = 40


def clustered_texts() -> tuple[list[str], np.ndarray]:
    """Papers written from VOCABULARIES, each from its own (its topic returned), topics mixed in
    row order as a venue's paper ids would mix them."""
    rng = np.random.default_rng(5)
    topics = np.tile(np.arange(len(VOCABULARIES)), PER_TOPIC)
    texts = [" ".join(rng.choice(VOCABULARIES[t].split(), size=12)) for t in topics]
    return texts, topics


def rows(found: neighbours.Neighbours) -> list[tuple[int, int, int, str]]:
    return [(int(p), int(r), int(n), float(s).hex()) for p, r, n, s in
            zip(found.paper, found.rank, found.neighbour, found.similarity, strict=True)]


def test_the_approximate_stage_finds_the_exact_rows_and_repeats(monkeypatch):
    texts, topics = clustered_texts()
    vectors = embed(texts, METHOD)
    exact = neighbours.nearest(vectors, 5, METHOD)
    built = []

    def counted(lsa, method):
        built.append(len(lsa))
        return index(lsa, method)

    index = neighbours._index
    monkeypatch.setattr(neighbours, "_index", counted)
    assert rows(neighbours.nearest(vectors, 5, METHOD)) == rows(exact) and built == []
    approximate = dataclasses.replace(METHOD, approximate_above=len(texts) - 1)
    first = neighbours.nearest(vectors, 5, approximate)
    assert built == [len(texts)]  # the index was taken ...
    # ... and on well-separated topics (each paper's topic fits in its candidates) it finds the
    # exact search's rows, to the bit, every one within its own topic
    assert rows(first) == rows(exact)
    assert (topics[first.paper] == topics[first.neighbour]).all()
    assert rows(neighbours.nearest(vectors, 5, approximate)) == rows(first)


def test_a_row_the_index_finds_too_few_for_gets_the_exact_search():
    texts, _ = clustered_texts()
    lsa = embed(texts, METHOD).lsa
    width, block = 20, np.arange(10, 30)

    class Sparse:  # an index that finds only itself and two papers
        def get_nns_by_item(self, row: int, count: int) -> list[int]:
            return [row, (row + 1) % len(lsa), (row + 2) % len(lsa)]

    found = neighbours._approximate_candidates(Sparse(), lsa, block, width, METHOD.decimals)
    assert found.tolist() == neighbours._candidates(lsa, block, width, METHOD.decimals).tolist()


def clustered_points() -> tuple[np.ndarray, np.ndarray]:
    """Four well-separated clusters in 20 dimensions, mixed in row order."""
    rng = np.random.default_rng(9)
    centres = rng.normal(size=(4, 20)) * 10
    topics = np.tile(np.arange(4), 100)
    return centres[topics] + rng.normal(size=(len(topics), 20)), topics


SAMPLED = dataclasses.replace(LAYOUT_METHOD, sample_above=200, sample_papers=120)


def test_a_large_layout_is_tsne_of_a_sample_and_the_rest_placed_near_their_text(monkeypatch):
    points, topics = clustered_points()
    laid = []
    tsne = layout._tsne

    def counted(data, method):
        laid.append(len(data))
        return tsne(data, method)

    monkeypatch.setattr(layout, "_tsne", counted)
    whole = layout.lay_out(points)
    assert laid == [len(points)]
    first = layout.lay_out(points, SAMPLED)
    assert laid[1:] == [120]  # only the sample went through t-SNE
    assert first.xy.tobytes() == layout.lay_out(points, SAMPLED).xy.tobytes()  # the same, twice
    xy = first.xy
    assert xy.min() >= 0 and xy.max() <= 1 and len(np.unique(xy, axis=0)) > 300
    centres = np.array([xy[topics == t].mean(axis=0) for t in range(4)])
    nearest = np.argmin(((xy[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2), axis=1)
    assert (nearest == topics).all()  # every placed paper among its own cluster
    # measured in float32 above the threshold (near-equal distances may order differently)
    assert first.trustworthiness == pytest.approx(
        sklearn_trustworthiness(points, xy, n_neighbors=5), abs=1e-3)
    assert first.trustworthiness >= 0.9 and whole.trustworthiness >= 0.9


def test_a_large_layout_of_too_few_distinct_papers_or_no_latent_space():
    same = layout.lay_out(np.tile(np.arange(5.0), (300, 1)), SAMPLED)
    assert (same.xy == 0.5).all()
    blank = layout.lay_out(np.zeros((300, 0)), SAMPLED)
    assert (blank.xy == 0.5).all()


def test_trustworthiness_in_smaller_blocks_is_the_same(monkeypatch):
    points, _ = clustered_points()
    xy = np.random.default_rng(1).normal(size=(len(points), 2)) + points[:, :2]
    whole = layout.trustworthiness(points, xy, 5)
    monkeypatch.setattr(layout, "BLOCK_VALUES", 3 * len(points))  # three query papers a block
    assert layout.trustworthiness(points, xy, 5) == pytest.approx(whole, abs=1e-12)
    assert whole == pytest.approx(sklearn_trustworthiness(points, xy, n_neighbors=5), abs=1e-9)
