"""The label audit: where a classifier trained on the venue's own labels disagrees with them.

Each labelled paper's label is predicted from the labels of the other papers: the papers are
ordered by label, then paper id, and dealt round-robin into Method.audit_folds folds (every
fold holds its share of each category, and the split is the same on every run); each fold is
predicted by a classifier (paperrank.related.classifier) trained on the others.  Only labels the
classifier could give (the taxonomy's LLM choices) train it; a paper with another label
(UNCLASSIFIED, say) is predicted by a classifier trained on all of them.  dbt flags a label as
disputed when the prediction differs and its probability reaches `label_audit_threshold`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from paperrank.related.classifier import fit_predict
from paperrank.related.labels import Labelled
from paperrank.related.method import Method

MIN_TRAINING = 10  # fewer labels to learn from: no audit


@dataclass(frozen=True)
class AuditRow:
    paper_id: str
    label: str
    audit_category: str
    audit_confidence: float


def audit(lsa: np.ndarray, row_of: dict[str, int], labelled: list[Labelled], choices: set[str],
          method: Method) -> list[AuditRow]:
    """One row per labelled paper (none when the labels cannot train a classifier)."""
    training = sorted((item.label, item.paper_id) for item in labelled if item.label in choices)
    if len(training) < MIN_TRAINING or len({label for label, _ in training}) < 2 or lsa.shape[1] == 0:
        return []
    rows = np.array([row_of[paper_id] for _, paper_id in training])
    labels = [label for label, _ in training]
    fold = np.arange(len(training)) % method.audit_folds
    predicted: dict[str, tuple[str, float]] = {}
    for f in range(method.audit_folds):
        held = fold == f
        result = fit_predict(lsa, rows[~held], [lb for lb, h in zip(labels, held, strict=True) if not h],
                             rows[held], method)
        for (_, paper_id), category, probability in zip(
                [t for t, h in zip(training, held, strict=True) if h], result.category,
                result.probability, strict=True):
            predicted[paper_id] = (str(category), float(probability))
    others = [item for item in labelled if item.label not in choices]
    if others:
        result = fit_predict(lsa, rows, labels, np.array([row_of[o.paper_id] for o in others]), method)
        for item, category, probability in zip(others, result.category, result.probability, strict=True):
            predicted[item.paper_id] = (str(category), float(probability))
    return [AuditRow(item.paper_id, item.label, *predicted[item.paper_id]) for item in labelled]
