"""Maps of a venue: every paper placed in two dimensions from its text vectors, and how faithful.

One layout for the whole venue and one per ranked category, each from the papers' LSA vectors
(paperrank.related.vectors, the vectors related papers and sub-themes use) by openTSNE's t-SNE:
perplexity 15 (lower for a small category: at most a third of its papers), PCA initialisation,
125 iterations of early exaggeration then 125 more; Barnes-Hut below FFT_FROM papers, where the
FFT's fixed grid costs more than it saves, the FFT above.  Measured against scikit-learn's t-SNE
and UMAP on ICLR 2026 (docs/related-papers.md "Maps"): the only one within 10 s for the venue and
every category, at trustworthiness 0.92-0.99.  One thread and fixed seeds: the same vectors give
the same coordinates, byte for byte.

Above LayoutMethod.sample_above papers (a million papers would take hours of t-SNE on one
thread) only an evenly spread sample of `sample_papers` papers (every n/sample-th in the
caller's order, so the same papers on every run) is laid out by t-SNE; every other paper is
placed at the mean of its `place_neighbours` nearest sampled papers' coordinates, nearest in the
LSA space by an Annoy index of the sample (openTSNE's bundled copy, a fixed seed, one thread).
A placed paper lands among the papers its text is nearest to, which is what trustworthiness
measures; its value at 100,000 and 1,000,000 papers is in docs/related-papers.md ("Maps").

Coordinates are scaled into the unit square (the larger span becomes 1, the aspect kept) and
rounded to 6 decimals, so a page can draw them as they are.  Each layout's trustworthiness
(scikit-learn's definition, 5 neighbours) is measured here against the same vectors, exactly up
to EXACT_UP_TO papers and on a fixed, evenly spread sample of query papers above, so that 100,000
papers stay within memory.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.neighbors import NearestNeighbors

from paperrank.related.layout_method import FFT_FROM, LAYOUT_METHOD, LayoutMethod

EXACT_UP_TO = 10_000      # trustworthiness over every paper up to this many, a sample above
SAMPLE_QUERIES = 2_000    # query papers of the sampled trustworthiness
BLOCK_ROWS = 256          # query papers per block of distances (memory bound) ...
BLOCK_VALUES = 1 << 24    # ... fewer above 65,536 papers: a block holds at most this many distances
PLACE_ROWS = 4_096        # papers placed per block


@dataclass(frozen=True)
class Layout:
    xy: np.ndarray                   # papers x 2, in the unit square
    trustworthiness: float | None    # None: too few papers to measure (2 x neighbours or fewer)


def lay_out(points: np.ndarray, method: LayoutMethod = LAYOUT_METHOD) -> Layout:
    """The layout of `points` (papers x dimensions, rows in the caller's order) and its
    trustworthiness.  Fewer than 4 distinct papers, or no latent space: their first two
    principal components (t-SNE needs a few distinct neighbours to calibrate against; on
    identical points its affinities are not numbers)."""
    n = len(points)
    sampled = n > method.sample_above
    # float32 above the sample's threshold: a million papers' float64 copy would be 800 MB
    data = np.asarray(points, dtype=np.float32 if sampled else np.float64)
    if n == 0:
        return Layout(np.zeros((0, 2)), None)
    if sampled:
        raw = _sampled(data, method)
    else:
        too_few = n < 4 or data.shape[1] == 0 or len(np.unique(data, axis=0)) < 4
        raw = _principal(data) if too_few else _tsne(data, method)
    xy = np.round(_unit_square(raw), method.decimals)
    trust = trustworthiness(data, xy, method.neighbours) if n > 2 * method.neighbours else None
    return Layout(xy, trust)


def _tsne(data: np.ndarray, method: LayoutMethod) -> np.ndarray:
    from openTSNE import TSNEEmbedding, affinity, initialization

    perplexity = min(method.perplexity, (len(data) - 1) / 3)
    affinities = affinity.PerplexityBasedNN(data, perplexity=perplexity, n_jobs=1,
                                            random_state=method.seed, verbose=False)
    start = initialization.pca(data, random_state=method.seed)
    gradient = "fft" if len(data) >= FFT_FROM else "bh"
    embedding = TSNEEmbedding(start, affinities, negative_gradient_method=gradient, n_jobs=1,
                              random_state=method.seed, verbose=False)
    embedding = embedding.optimize(n_iter=method.early_iterations, exaggeration=method.exaggeration,
                                   momentum=0.5)
    embedding = embedding.optimize(n_iter=method.iterations, momentum=0.8)
    return np.asarray(embedding, dtype=np.float64)


def _sampled(data: np.ndarray, method: LayoutMethod) -> np.ndarray:
    """t-SNE of an evenly spread sample, every other paper at the mean of its nearest sampled
    papers' places (a sample of too few distinct papers: principal components, as lay_out)."""
    from openTSNE.dependencies.annoy import AnnoyIndex  # the C++ index openTSNE bundles

    n = len(data)
    if data.shape[1] == 0:  # no latent space: every paper in one place
        return np.zeros((n, 2))
    sample = np.linspace(0, n - 1, method.sample_papers).round().astype(np.int64)
    points = data[sample].astype(np.float64)
    too_few = len(np.unique(points, axis=0)) < 4
    anchors = _principal(points) if too_few else _tsne(points, method)
    index = AnnoyIndex(data.shape[1], "euclidean")
    index.set_seed(method.seed + 1)  # Annoy's seed must not be 0 (it keeps a zero state)
    for row, vector in enumerate(points):
        index.add_item(row, vector)
    index.build(method.place_trees, n_jobs=1)
    out = np.empty((n, 2))
    width = min(method.place_neighbours, len(sample))
    for start in range(0, n, PLACE_ROWS):
        block = data[start:start + PLACE_ROWS]
        near = np.array([index.get_nns_by_vector(vector, width) for vector in block], dtype=np.int64)
        out[start:start + len(block)] = anchors[near].mean(axis=1)
    out[sample] = anchors  # a sampled paper keeps its own place
    return out


def _principal(data: np.ndarray) -> np.ndarray:
    """The first two principal components (zeros where there are fewer), signs fixed."""
    out = np.zeros((len(data), 2))
    if data.shape[1] == 0 or len(data) < 2:
        return out
    centred = data - data.mean(axis=0)
    u, s, _ = np.linalg.svd(centred, full_matrices=False)
    components = u[:, :2] * s[:2]
    for c in range(components.shape[1]):
        column = components[:, c]
        if column[np.argmax(np.abs(column))] < 0:  # the sign SVD leaves free, fixed
            column *= -1
    out[:, : components.shape[1]] = components
    return out


def _unit_square(raw: np.ndarray) -> np.ndarray:
    """Shift to 0 and scale the larger span to 1 (a single point or one place: all at 0.5)."""
    low = raw.min(axis=0)
    span = float((raw.max(axis=0) - low).max())
    if span == 0:
        return np.full_like(raw, 0.5)
    return (raw - low) / span


def trustworthiness(points: np.ndarray, xy: np.ndarray, k: int) -> float:
    """scikit-learn's trustworthiness of `xy` against `points` (Euclidean, k neighbours): 1 minus
    how far down the text's own order a paper's k nearest on the map lie, normalised.

    sklearn.manifold.trustworthiness holds an n x n matrix; here one block of query papers at a
    time holds its distances to every paper, and above EXACT_UP_TO papers only SAMPLE_QUERIES
    query papers, evenly spread in row order, are averaged (an unbiased estimate of the same
    mean)."""
    n = len(points)
    if n <= 2 * k:
        raise ValueError(f"trustworthiness needs more than {2 * k} papers, got {n}")
    data = np.asarray(points)
    data = data if data.dtype == np.float32 else data.astype(np.float64, copy=False)  # float32: large venues
    finder = NearestNeighbors(n_neighbors=k + 1).fit(xy)
    queries = (np.arange(n) if n <= EXACT_UP_TO
               else np.linspace(0, n - 1, SAMPLE_QUERIES).round().astype(np.int64))
    squares = np.einsum("ij,ij->i", data, data)
    penalty = 0.0
    block = max(1, min(BLOCK_ROWS, BLOCK_VALUES // n))
    for start in range(0, len(queries), block):
        rows = queries[start:start + block]
        distances = squares[rows, None] + squares[None, :] - 2.0 * (data[rows] @ data.T)
        distances[np.arange(len(rows)), rows] = np.inf  # never itself
        found = finder.kneighbors(xy[rows], return_distance=False)
        for i, (row, near) in enumerate(zip(rows, found, strict=True)):
            near = near[near != row][:k]
            # a neighbour's rank in the text's order: the papers strictly nearer, plus one
            ranks = (distances[i][None, :] < distances[i][near][:, None]).sum(axis=1) + 1
            penalty += float(np.clip(ranks - k, 0, None).sum())
    penalty *= n / len(queries)
    return 1.0 - penalty * 2.0 / (n * k * (2.0 * n - 3.0 * k - 1.0))
