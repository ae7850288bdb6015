"""The weight set `article_2026` is the article's formula, read from the article itself.

The dbt unit tests feed their own weights and the synthetic venues rank with whatever the seed
holds, so a changed weight in seeds/composite_weights.csv was caught only by the real-data
comparison (test_iclr2026_ranking, which needs the ICLR 2026 build). This reads the formula in
the source document's "How we picked the papers" and the seed, in milliseconds."""

from __future__ import annotations

import re

import pandas as pd
from project import REPO, SHARED, require_shared

ARTICLE = SHARED / "seeds" / "000_a5c25636d0ffddb8.txt"
# "local_top_overall = 0.40 × z (contribution_mean) + 0.35 × z (rating_mean) ... − 0.05 × z (rating_std)"
TERM = re.compile(r"([+\-−])?\s*(\d+(?:\.\d+)?)\s*×\s*z\s*\((\w+)\)")


def article_weights() -> dict[str, float]:
    text = require_shared(ARTICLE).read_text(encoding="utf-8")
    [formula] = [line for line in text.splitlines() if line.startswith("local_top_overall =")]
    return {signal: (-1.0 if sign in ("-", "−") else 1.0) * float(weight)
            for sign, weight, signal in TERM.findall(formula)}


def test_the_article_weight_set_is_the_articles_formula() -> None:
    expected = article_weights()
    assert expected == {"contribution_mean": 0.40, "rating_mean": 0.35, "confidence_mean": 0.10,
                        "soundness_mean": 0.10, "rating_std": -0.05}  # the reader read all five
    seed = pd.read_csv(REPO / "seeds" / "composite_weights.csv")
    article = seed[seed["weight_set"] == "article_2026"]
    assert dict(zip(article["signal"], article["weight"], strict=True)) == expected
