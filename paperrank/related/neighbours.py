"""Each paper's k most similar papers of its venue, exactly reproducible, within bounded memory.

similarity(a, b) = w * LSA cosine + (1 - w) * TF-IDF cosine (w = Method.lsa_weight), rounded to
Method.decimals, clipped to [0, 1].  Two stages, so that 100,000 papers fit in memory: the
`candidates` nearest papers by the LSA cosine (a dense product, one block of rows at a time),
then the blend on those candidates only (sparse dot products).  On ICLR 2026 the two stages
find the same neighbours as the blend over every pair, up to 0.001-0.005 on the three measures
(docs/related-papers.md).

Above Method.approximate_above papers the exact first stage (every pair's LSA cosine: 186 s at
100,000 papers, growing with the square) gives way to an approximate one: an Annoy index of the
LSA vectors (openTSNE's bundled copy: random-projection trees, Method.index_trees of them, a
fixed seed, built on one thread, so the same vectors give the same candidates) proposes each
paper's `candidates` nearest, and the same exact blend re-ranks them.  A paper that may be missed
is one whose true neighbour no tree put near it; the recall against the exact search is measured
in docs/related-papers.md.  A paper the index returns too few candidates for falls back to the
exact search for its own row.

Ties are exact after rounding and broken by paper id (the corpus is in paper id order, so by
row number), in both stages.  A neighbour must have a similarity above 0: a paper with no term
in common with any other (an empty abstract) gets fewer than k rows, possibly none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from paperrank.related.method import Method
from paperrank.related.vectors import Vectors

if TYPE_CHECKING:  # a type only: the index is imported when a venue needs it
    from openTSNE.dependencies.annoy import AnnoyIndex


@dataclass(frozen=True)
class Neighbours:
    """Rows of (paper, rank, neighbour, similarity) as row numbers into the corpus."""

    paper: np.ndarray
    rank: np.ndarray
    neighbour: np.ndarray
    similarity: np.ndarray


def nearest(vectors: Vectors, k: int, method: Method) -> Neighbours:
    """The k nearest papers of every paper (fewer where fewer have a similarity above 0)."""
    n = len(vectors)
    parts: list[tuple[np.ndarray, ...]] = []
    if n < 2 or k < 1:
        empty = np.zeros(0, dtype=np.int64)
        return Neighbours(empty, empty, empty, np.zeros(0, dtype=np.float64))
    # without a latent space (a venue of a term or two) every paper is a candidate
    width = min(max(method.candidates, k), n - 1) if vectors.lsa.shape[1] else n - 1
    index = _index(vectors.lsa, method) if n > method.approximate_above and vectors.lsa.shape[1] else None
    for start in range(0, n, method.block_rows):
        rows = np.arange(start, min(start + method.block_rows, n))
        if index is None:
            candidates = _candidates(vectors.lsa, rows, width, method.decimals)
        else:
            candidates = _approximate_candidates(index, vectors.lsa, rows, width, method.decimals)
        parts.append(_rerank(vectors, rows, candidates, k, method))
    paper, rank, neighbour, similarity = (np.concatenate(p) for p in zip(*parts, strict=True))
    return Neighbours(paper, rank, neighbour, similarity)


SUBSET_STEP = 10  # the bound below reads every 10th paper: about 10 x width survive it


def _candidates(lsa: np.ndarray, rows: np.ndarray, width: int, decimals: int) -> np.ndarray:
    """The `width` papers of highest LSA cosine to each row (ties: lowest row number), itself
    excluded; a (rows x width) array of row numbers, in no particular order (the blend re-ranks
    them).

    Exact, without sorting a whole row: the width-th highest score among a fixed subset of the
    papers (every step-th) is at most the width-th highest among all, so every paper that can
    be a candidate scores at least that bound; only those (about SUBSET_STEP x width a row; of the
    papers tied at the bound, only as many as can be needed, the lowest-numbered) are sorted, by
    score then row number.  Memory: a block's scores (rows x papers, float32), a running count of
    the same size and boolean masks of a quarter of it."""
    n, count = lsa.shape[0], len(rows)
    if lsa.shape[1]:
        scores = lsa[rows] @ lsa.T
        np.round(scores, decimals, out=scores)  # exact ties, broken by row number below
    else:  # no latent space: every candidate ties, so the lowest row numbers
        scores = np.zeros((count, n), dtype=np.float32)
    scores[np.arange(count), rows] = -np.inf  # never itself
    step = max(1, min(SUBSET_STEP, n // (4 * width)))
    subset = scores[:, ::step]
    if subset.shape[1] <= width:  # too few papers for a bound: every row whole
        bound = np.full((count, 1), -np.inf, dtype=scores.dtype)
    else:
        bound = np.partition(subset, subset.shape[1] - width, axis=1)[:, subset.shape[1] - width:][:, :1]
    # all above the bound, and of those equal to it only the lowest-numbered that can be needed
    # (many papers of one text tie, and would all be sorted otherwise)
    above = scores > bound
    equal = scores == bound
    needed = width - above.sum(axis=1, keepdims=True, dtype=np.int32)
    keep = above | (equal & (np.cumsum(equal, axis=1, dtype=np.int32) <= needed))
    del above, equal
    row, column = np.nonzero(keep)
    order = np.lexsort((column, -scores[row, column], row))  # by row, score down, number up
    row, column = row[order], column[order]
    starts = np.searchsorted(row, np.arange(count))
    return column[starts[:, None] + np.arange(width)]


def _index(lsa: np.ndarray, method: Method) -> AnnoyIndex:
    """An Annoy index of the LSA rows (Euclidean: on unit rows its order is the cosine's),
    seeded and built on one thread, so that it is the same on every run."""
    from openTSNE.dependencies.annoy import AnnoyIndex  # the C++ index openTSNE bundles

    index = AnnoyIndex(lsa.shape[1], "euclidean")
    index.set_seed(method.seed + 1)  # Annoy's seed must not be 0 (it keeps a zero state)
    for row, vector in enumerate(lsa):
        index.add_item(row, vector)
    index.build(method.index_trees, n_jobs=1)
    return index


def _approximate_candidates(index: AnnoyIndex, lsa: np.ndarray, rows: np.ndarray, width: int,
                            decimals: int) -> np.ndarray:
    """The `width` nearest papers to each row that the index finds, itself excluded (papers of
    identical text all sit at distance 0, so itself is not always first); a row it finds too few
    for gets the exact search (_candidates) of its own."""
    out = np.empty((len(rows), width), dtype=np.int64)
    for i, row in enumerate(rows):
        found = [c for c in index.get_nns_by_item(int(row), width + 1) if c != row][:width]
        if len(found) == width:
            out[i] = found
        else:
            out[i] = _candidates(lsa, np.array([row]), width, decimals)[0]
    return out


def _rerank(vectors: Vectors, rows: np.ndarray, candidates: np.ndarray, k: int,
            method: Method) -> tuple[np.ndarray, ...]:
    """The blend on each row's candidates; the k best above 0, ties by row number."""
    width = candidates.shape[1]
    left = np.repeat(rows, width)
    right = candidates.ravel()
    tfidf = _row_dots(vectors.tfidf, left, right)
    if vectors.lsa.shape[1]:
        lsa = np.einsum("ij,ij->i", vectors.lsa[left], vectors.lsa[right], dtype=np.float64)
        blend = method.lsa_weight * lsa + (1 - method.lsa_weight) * tfidf
    else:
        blend = tfidf
    blend = np.clip(np.round(blend, method.decimals), 0.0, 1.0).reshape(len(rows), width)
    # best first, ties by row number: sort by row number, then stably by score
    by_number = np.argsort(candidates, axis=1, kind="stable")
    numbers = np.take_along_axis(candidates, by_number, axis=1)
    scores = np.take_along_axis(blend, by_number, axis=1)
    order = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    neighbour = np.take_along_axis(numbers, order, axis=1)
    similarity = np.take_along_axis(scores, order, axis=1)
    rank = np.broadcast_to(np.arange(1, order.shape[1] + 1), order.shape)
    paper = np.broadcast_to(rows[:, None], order.shape)
    positive = similarity > 0
    return paper[positive], rank[positive], neighbour[positive], similarity[positive]


def _row_dots(matrix: sp.csr_matrix, left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """matrix[left[i]] . matrix[right[i]] for every i, in float64."""
    if matrix.shape[1] == 0:
        return np.zeros(len(left), dtype=np.float64)
    products = matrix[left].multiply(matrix[right])
    return np.asarray(products.sum(axis=1, dtype=np.float64)).ravel()
