"""How many of the exact search's related papers the approximate one finds (its recall).

    python -m bench.related_recall --papers 100000 --shape long          # a synthetic venue
    python -m bench.related_recall --db output/million/short-1000000.duckdb --queries 1000
    python -m bench.related_recall --papers 100000 --shape long --trees 20,50 --search 1,4

Above Method.approximate_above papers, paperrank.related.neighbours takes each paper's LSA
candidates from an Annoy index instead of every pair's cosine; the blend re-ranks them the same
way.  Each paper's rows depend on its own candidates only, so the exact rows of a sample of
`--queries` papers (evenly spread by paper id) are computed exactly, and the approximate rows
of the same papers from an index of every paper: recall is the share of the exact (paper,
related paper) pairs the approximate search also finds, k = the project's related_papers; and
the share of (paper, rank) whose similarity is the exact one's (a venue of many identical texts
has many papers of equal similarity, any of which is as right as the one the exact search's
tie-break names).
`--trees` and `--search` (a multiple of Annoy's default search_k: trees x candidates) try other
settings than Method's; the seconds of the whole venue's queries are extrapolated from the
sample's.  One thread, as `paperrank related` runs.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import duckdb
import numpy as np
from threadpoolctl import threadpool_limits

from bench.raw_layer import write_synthetic
from paperrank.related import corpus as corpora
from paperrank.related import neighbours
from paperrank.related.method import METHOD
from paperrank.related.refresh import default_related_papers
from paperrank.related.vectors import Vectors, embed


def vectors_of(db: Path) -> Vectors:
    con = duckdb.connect(str(db), read_only=True)
    try:
        corpus = corpora.load(con, corpora.venues(con)[0])
    finally:
        con.close()
    return embed(corpus.texts, METHOD)


def pairs(found: tuple[np.ndarray, ...]) -> set[tuple[int, int]]:
    paper, _, neighbour, _ = found
    return set(zip(paper.tolist(), neighbour.tolist(), strict=True))


def similarities(found: tuple[np.ndarray, ...]) -> set[tuple[int, int, float]]:
    """(paper, rank, similarity): what a paper's list says at each rank, whichever paper it is."""
    paper, rank, _, similarity = found
    return set(zip(paper.tolist(), rank.tolist(), similarity.tolist(), strict=True))


def measure(vectors: Vectors, queries: int, trees: list[int], search: list[int]) -> list[str]:
    """One line per setting: trees, search multiple, seconds, recall."""
    from openTSNE.dependencies.annoy import AnnoyIndex

    n, k = len(vectors), default_related_papers()
    width = min(max(METHOD.candidates, k), n - 1)
    rows = np.linspace(0, n - 1, min(queries, n)).round().astype(np.int64)
    exact: set[tuple[int, int]] = set()
    levels: set[tuple[int, int, float]] = set()
    for start in range(0, len(rows), METHOD.block_rows):
        block = rows[start:start + METHOD.block_rows]
        candidates = neighbours._candidates(vectors.lsa, block, width, METHOD.decimals)
        result = neighbours._rerank(vectors, block, candidates, k, METHOD)
        exact |= pairs(result)
        levels |= similarities(result)
    lines = []
    for count in trees:
        started = time.perf_counter()
        index = AnnoyIndex(vectors.lsa.shape[1], "euclidean")
        index.set_seed(METHOD.seed + 1)
        for row, vector in enumerate(vectors.lsa):
            index.add_item(row, vector)
        index.build(count, n_jobs=1)
        built = time.perf_counter() - started
        for multiple in search:
            started = time.perf_counter()
            found = np.array([[c for c in index.get_nns_by_item(int(r), width + 1, count * (width + 1) * multiple)
                               if c != r][:width] for r in rows])
            queried = (time.perf_counter() - started) / len(rows) * n
            result = neighbours._rerank(vectors, rows, found, k, METHOD)
            recall = len(pairs(result) & exact) / max(1, len(exact))
            level = len(similarities(result) & levels) / max(1, len(levels))
            default = " (Method's)" if (count, multiple) == (METHOD.index_trees, 1) else ""
            lines.append(f"| {n:,} | {count}{default} | x{multiple} | {built:.1f} | {queried:.1f} | "
                         f"{recall:.3f} | {level:.3f} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, help="a raw layer (its first venue); else a synthetic one")
    parser.add_argument("--papers", type=int, default=100_000, help="the synthetic venue's papers")
    parser.add_argument("--shape", default="long", help="the synthetic venue's shape (bench.raw_layer)")
    parser.add_argument("--queries", type=int, default=1_000, help="papers whose rows are compared")
    parser.add_argument("--trees", default=str(METHOD.index_trees), help="comma-separated tree counts")
    parser.add_argument("--search", default="1", help="comma-separated multiples of Annoy's search_k")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-recall-") as folder, threadpool_limits(1):
        db = args.db
        if db is None:
            db = Path(folder) / "venue.duckdb"
            write_synthetic(db, args.papers, shape=args.shape)
        started = time.perf_counter()
        vectors = vectors_of(db)
        print(f"vectors of {len(vectors):,} papers: {time.perf_counter() - started:.1f} s "
              f"({vectors.lsa.shape[1]} LSA dimensions)", flush=True)
        print("| papers | trees | search_k | index s | every paper's queries s | recall | same similarity at "
              "its rank |")
        print("|---|---|---|---|---|---|---|")
        for line in measure(vectors, args.queries, [int(t) for t in args.trees.split(",")],
                            [int(s) for s in args.search.split(",")]):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
