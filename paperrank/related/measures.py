"""How good related papers are, by three measures that need no human judgement.

Over every paper and each of its related papers (docs/related-papers.md):
- same category: the share of (paper, related paper) pairs whose labels agree (the LLM's
  categories on ICLR 2026; a random pick of 5 scores 0.59, most papers being "Other");
- same primary area: the share of pairs of the same primary area (random: 0.08);
- shares a keyword: the share of papers with at least one related paper that shares one of its
  author keywords, compared lower-cased and trimmed (random: 0.10).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Measures:
    same_category: float
    same_primary_area: float
    shares_keyword: float

    def __str__(self) -> str:
        return (f"same category {self.same_category:.3f}, same primary area "
                f"{self.same_primary_area:.3f}, shares a keyword {self.shares_keyword:.3f}")


def measure(pairs: Sequence[tuple[str, str]], category: Mapping[str, str | None],
            primary_area: Mapping[str, str | None],
            keywords: Mapping[str, Sequence[str] | None]) -> Measures:
    """The three measures of (paper, related paper) pairs."""
    if not pairs:
        raise ValueError("no related papers to measure")
    words = {p: {w.strip().lower() for w in (ks or []) if w and w.strip()} for p, ks in keywords.items()}
    same_category = sum(category.get(a) is not None and category.get(a) == category.get(b)
                        for a, b in pairs) / len(pairs)
    same_area = sum(primary_area.get(a) is not None and primary_area.get(a) == primary_area.get(b)
                    for a, b in pairs) / len(pairs)
    shared: dict[str, bool] = {}
    for a, b in pairs:
        shared[a] = shared.get(a, False) or bool(words.get(a, set()) & words.get(b, set()))
    return Measures(same_category, same_area, sum(shared.values()) / len(shared))
