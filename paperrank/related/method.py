"""The text method behind related papers, sub-themes and the label audit, as one set of constants.

Chosen by measurement on ICLR 2026 (docs/related-papers.md): TF-IDF of title, abstract and the
authors' keywords (sublinear tf, English stop words, words and word pairs seen in at least two
papers), blended with its latent semantic analysis (a 100-dimensional truncated SVD of the same
matrix). The plain TF-IDF cosine reached 0.805 / 0.407 / 0.638 on the three measures; adding the
keywords to the text and 30% of the LSA cosine 0.827 / 0.463 / 0.702.

These are not user settings: they define the method, and their hash (`key`) is part of every
cached result's key, so changing one recomputes every venue on the next refresh.  The user
settings (how many related papers, the dispute threshold) are dbt vars (dbt_project.yml).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass

# bump when the code changes what a result means, so cached results are recomputed
VERSION = "1"


@dataclass(frozen=True)
class Method:
    """Every constant of the computation; `key()` hashes them with VERSION."""

    min_df: int = 2                 # a term must occur in at least this many papers
    ngram_max: int = 2              # words and word pairs
    lsa_dimensions: int = 100       # the truncated SVD's rank (smaller for tiny venues)
    lsa_weight: float = 0.3         # similarity = 0.3 LSA cosine + 0.7 TF-IDF cosine
    candidates: int = 50            # nearest by LSA, re-ranked by the blend (two stages)
    decimals: int = 6               # similarities rounded here, so ties are exact (then paper id)
    block_rows: int = 256           # papers per block of the similarity search (memory bound)
    approximate_above: int = 50_000  # more papers: the LSA candidates from an Annoy index (neighbours.py)
    index_trees: int = 20           # the index's random-projection trees (recall against build time)
    seed: int = 0                   # the SVD's and the k-means' random state
    subtheme_min_papers: int = 20   # a category smaller than this is one sub-theme
    subtheme_papers_each: int = 40  # about one sub-theme per this many papers ...
    subtheme_max: int = 8           # ... at most this many, at least 2
    subtheme_label_terms: int = 3   # terms in a sub-theme's label
    subtheme_terms: int = 8         # terms listed per sub-theme
    audit_folds: int = 5            # the audit predicts each label from the other folds
    classifier_c: float = 10.0      # logistic regression's inverse regularisation

    def key(self) -> str:
        text = json.dumps({"version": VERSION, **asdict(self)}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


METHOD = Method()
