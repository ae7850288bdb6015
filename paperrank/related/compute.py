"""The parts' results as the derived tables' rows (scikit-learn is imported here, not by refresh)."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from paperrank.related import corpus as corpora
from paperrank.related import store
from paperrank.related.audit import audit
from paperrank.related.labels import Labelled
from paperrank.related.layout import lay_out
from paperrank.related.layout_method import LayoutMethod
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


VENUE_LAYOUT = ""  # layout_category of the venue's own layout


def layouts(corpus: corpora.Corpus, vectors: Vectors, scope: store.Scope, labelled: list[Labelled],
            ranked: set[str], method: LayoutMethod) -> list[pd.DataFrame]:
    """The venue's layout and each ranked category's, from the LSA vectors, with each one's
    trustworthiness (paperrank.related.layout)."""
    row_of = {paper_id: i for i, paper_id in enumerate(corpus.paper_ids)}
    members: dict[str, list[int]] = {VENUE_LAYOUT: list(range(len(corpus)))}
    for item in labelled:
        if item.category in ranked:
            members.setdefault(item.category, []).append(row_of[item.paper_id])
    ids = np.asarray(corpus.paper_ids, dtype=object)
    quality, positions = [], []
    for category in sorted(members):
        rows = np.array(sorted(members[category]), dtype=np.int64)
        started = time.perf_counter()
        layout = lay_out(vectors.lsa[rows], method)
        quality.append((category, len(rows), layout.trustworthiness, time.perf_counter() - started))
        positions.append(pd.DataFrame({"layout_category": category, "paper_id": ids[rows],
                                       "x": layout.xy[:, 0], "y": layout.xy[:, 1]}))
    labels = {"venue": scope.venue, "taxonomy": scope.taxonomy, "label_model": scope.label_model}
    quality_frame = pd.DataFrame(quality, columns=["layout_category", "papers", "trustworthiness",
                                                   "seconds"]).assign(**labels)
    return [quality_frame, pd.concat(positions, ignore_index=True).assign(**labels)]
