"""A venue's papers as vectors: TF-IDF (sparse) and its latent semantic analysis (dense).

Both are fitted on the venue's own accepted papers (a corpus-wide fit: one changed abstract
changes every paper's weights a little, which is why a venue is recomputed as a whole; see
docs/related-papers.md).  Rows are L2-normalised, so a dot product is a cosine.  Everything is
float32, to halve the memory at 100,000 papers.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.decomposition import TruncatedSVD
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.preprocessing import normalize

from paperrank.related.method import Method


@dataclass(frozen=True)
class Vectors:
    tfidf: sp.csr_matrix      # papers x terms, rows of unit length (or zero: no known term)
    lsa: np.ndarray           # papers x dimensions, rows of unit length (or zero); may be 0 wide
    terms: np.ndarray         # the term of each TF-IDF column

    def __len__(self) -> int:
        return int(self.tfidf.shape[0])


def embed(texts: list[str], method: Method) -> Vectors:
    """Fit the TF-IDF and the LSA on `texts` and return both (empty texts give zero rows)."""
    n = len(texts)
    vectorizer = TfidfVectorizer(stop_words="english", sublinear_tf=True, dtype=np.float32,
                                 ngram_range=(1, method.ngram_max),
                                 min_df=method.min_df if n >= method.min_df else 1)
    try:
        tfidf = vectorizer.fit_transform(texts).tocsr()
        terms = vectorizer.get_feature_names_out()
    except ValueError:  # no term at all (every text empty, or only stop words)
        tfidf, terms = sp.csr_matrix((n, 0), dtype=np.float32), np.array([], dtype=object)
    tfidf.sort_indices()
    dimensions = min(method.lsa_dimensions, tfidf.shape[1] - 1, n - 1)
    if dimensions >= 1:
        svd = TruncatedSVD(dimensions, random_state=method.seed)
        with warnings.catch_warnings():  # identical texts: no variance to explain, said as a warning
            warnings.simplefilter("ignore", RuntimeWarning)
            lsa = normalize(svd.fit_transform(tfidf)).astype(np.float32)
    else:  # too small a venue for a latent space: the TF-IDF alone
        lsa = np.zeros((n, 0), dtype=np.float32)
    return Vectors(tfidf, lsa, np.asarray(terms, dtype=object))
