"""A small classifier of papers into a taxonomy's categories, from the venue's own labels.

Logistic regression on the papers' LSA vectors (paperrank.related.vectors), one-vs-rest free
multinomial, C = Method.classifier_c.  On ICLR 2026, trained on a random 15% of the LLM's labels,
it agrees with the LLM on 0.87-0.90 of the rest, and on 0.96-0.98 of those it gives a probability
of at least 0.9 (docs/related-papers.md).  Used by the label audit (paperrank.related.audit) and
by the classifier that saves LLM calls (paperrank.classify.sampled).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.linear_model import LogisticRegression
from threadpoolctl import threadpool_limits

from paperrank.related.method import Method


@dataclass(frozen=True)
class Prediction:
    category: np.ndarray     # the most probable category of each paper
    probability: np.ndarray  # its probability (0..1)


def fit_predict(features: np.ndarray, train: np.ndarray, labels: Sequence[str], predict: np.ndarray,
                method: Method) -> Prediction:
    """Train on the rows `train` (with `labels`), predict the rows `predict`.

    One category only: every prediction is it, with probability 1."""
    classes = sorted(set(labels))
    if len(predict) == 0:
        return Prediction(np.array([], dtype=object), np.array([], dtype=np.float64))
    if len(classes) == 1:
        return Prediction(np.array([classes[0]] * len(predict), dtype=object), np.ones(len(predict)))
    with threadpool_limits(1):  # one BLAS thread: the same result on any machine
        model = LogisticRegression(C=method.classifier_c, max_iter=5000)
        model.fit(features[train], np.asarray(labels, dtype=object))
        probabilities = model.predict_proba(features[predict])
    best = probabilities.argmax(axis=1)
    return Prediction(np.asarray(model.classes_, dtype=object)[best],
                      probabilities[np.arange(len(best)), best].astype(np.float64))
