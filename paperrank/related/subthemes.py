"""Sub-themes: a few clusters of each ranked category, each named by the terms that set it apart.

Within a category of n papers: one sub-theme when n < Method.subtheme_min_papers, else about one
per `subtheme_papers_each` papers, between 2 and `subtheme_max` (never more than the distinct
texts).  k-means (fixed seed, 4 starts) on the papers' LSA vectors, which are fitted on the whole
venue.  A sub-theme's terms are those whose mean TF-IDF weight in it exceeds their mean in the
rest of the category most; a term inside an already chosen word pair (or a pair made of chosen
words) is skipped, so the label does not say "kv, cache, kv cache".  Sub-theme 1 is the largest
(ties: the one holding the lowest paper id).  Terms are the tokenizer's lower-case words, so a
label holds no markup.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.cluster import KMeans

from paperrank.related.method import Method
from paperrank.related.vectors import Vectors


@dataclass(frozen=True)
class Subtheme:
    number: int           # 1 = largest
    label: str            # the first few distinguishing terms, ", "-joined
    terms: list[str]      # the distinguishing terms, most distinguishing first
    members: list[int]    # row numbers into the corpus, ascending


def subtheme_count(papers: int, distinct: int, method: Method) -> int:
    """How many sub-themes a category of `papers` papers (`distinct` distinct vectors) gets."""
    if papers < method.subtheme_min_papers:
        return 1
    wanted = min(method.subtheme_max, max(2, papers // method.subtheme_papers_each))
    return max(1, min(wanted, distinct))


def cluster(vectors: Vectors, members: np.ndarray, method: Method) -> list[Subtheme]:
    """The sub-themes of one category (`members`: its papers' row numbers, ascending)."""
    points = vectors.lsa[members]
    distinct = len(np.unique(points, axis=0)) if points.shape[1] else 1
    count = subtheme_count(len(members), distinct, method)
    if count == 1:
        assignment = np.zeros(len(members), dtype=np.int64)
    else:
        assignment = KMeans(count, n_init=4, random_state=method.seed).fit_predict(points)
    groups = [members[assignment == g] for g in range(count)]
    groups = [g for g in groups if len(g)]
    groups.sort(key=lambda g: (-len(g), int(g.min())))
    return [Subtheme(i + 1, *_name(vectors, g, members, method), members=[int(m) for m in g])
            for i, g in enumerate(groups)]


def _name(vectors: Vectors, group: np.ndarray, members: np.ndarray,
          method: Method) -> tuple[str, list[str]]:
    """A sub-theme's label and terms: what its papers say more than the rest of the category."""
    if vectors.tfidf.shape[1] == 0:
        return "", []
    inside = np.asarray(vectors.tfidf[group].mean(axis=0)).ravel()
    rest = np.setdiff1d(members, group, assume_unique=True)
    outside = np.asarray(vectors.tfidf[rest].mean(axis=0)).ravel() if len(rest) else 0.0
    score = inside - outside
    # best first, ties by term (the columns are in term order, so a stable sort on the score)
    order = np.argsort(-score, kind="stable")
    chosen: list[str] = []
    for column in order[: 20 * method.subtheme_terms]:
        if score[column] <= 0 or len(chosen) >= method.subtheme_terms:
            break
        term = str(vectors.terms[column])
        words = _stems(term)
        if any(words <= _stems(c) for c in chosen):
            continue  # already said by a chosen term ("llm" after "llms")
        inside_chosen = [c for c in chosen if _stems(c) < words]
        if inside_chosen:  # a pair made of a chosen word: it replaces that word
            chosen[chosen.index(inside_chosen[0])] = term
            chosen = [c for c in chosen if c == term or not _stems(c) < words]
            continue
        chosen.append(term)
    return ", ".join(chosen[: method.subtheme_label_terms]), chosen


def _stems(term: str) -> set[str]:
    """A term's words without a plural s, for telling whether two terms say the same."""
    return {w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in term.split()}
