"""The parts' results as the derived tables' rows (scikit-learn is imported here, not by refresh)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from paperrank.related import corpus as corpora
from paperrank.related import store
from paperrank.related.audit import audit
from paperrank.related.labels import Labelled
from paperrank.related.method import Method
from paperrank.related.neighbours import nearest
from paperrank.related.subthemes import cluster
from paperrank.related.vectors import Vectors

TERMS_SEPARATOR = "; "


def related(corpus: corpora.Corpus, vectors: Vectors, k: int, method: Method) -> list[pd.DataFrame]:
    found = nearest(vectors, k, method)
    ids = np.asarray(corpus.paper_ids, dtype=object)
    inputs = pd.DataFrame({"venue": corpus.venue, "paper_id": corpus.paper_ids, "text_hash": corpus.hashes})
    related = pd.DataFrame({
        "venue": corpus.venue, "paper_id": ids[found.paper], "related_rank": found.rank.astype(np.int32),
        "related_paper_id": ids[found.neighbour], "similarity": found.similarity.astype(np.float64)})
    return [inputs, related]


def subthemes(corpus: corpora.Corpus, vectors: Vectors, scope: store.Scope, labelled: list[Labelled],
               ranked: set[str], method: Method) -> list[pd.DataFrame]:
    row_of = {paper_id: i for i, paper_id in enumerate(corpus.paper_ids)}
    by_category: dict[str, list[int]] = {}
    for item in labelled:
        if item.category in ranked:
            by_category.setdefault(item.category, []).append(row_of[item.paper_id])
    papers, themes = [], []
    for category in sorted(by_category):
        for theme in cluster(vectors, np.array(sorted(by_category[category])), method):
            themes.append((category, theme.number, theme.label, TERMS_SEPARATOR.join(theme.terms),
                           len(theme.members)))
            papers += [(corpus.paper_ids[m], category, theme.number) for m in theme.members]
    labels = {"venue": scope.venue, "taxonomy": scope.taxonomy, "label_model": scope.label_model}
    paper_frame = pd.DataFrame(papers, columns=["paper_id", "category", "subtheme"]).assign(**labels)
    theme_frame = pd.DataFrame(themes, columns=["category", "subtheme", "subtheme_label", "subtheme_terms",
                                                "paper_count"]).assign(**labels)
    return [paper_frame, theme_frame]


def audit_frame(corpus: corpora.Corpus, vectors: Vectors, scope: store.Scope, labelled: list[Labelled],
           choices: set[str], method: Method) -> list[pd.DataFrame]:
    row_of = {paper_id: i for i, paper_id in enumerate(corpus.paper_ids)}
    rows = audit(vectors.lsa, row_of, labelled, choices, method)
    frame = pd.DataFrame([(r.paper_id, r.label, r.audit_category, r.audit_confidence) for r in rows],
                         columns=["paper_id", "label_category", "audit_category", "audit_confidence"])
    return [frame.assign(venue=scope.venue, taxonomy=scope.taxonomy, label_model=scope.label_model)]
