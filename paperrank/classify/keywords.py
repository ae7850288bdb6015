"""A deterministic offline classifier built from the taxonomy's own scope text.

Each category's `in_scope` list (split on `;`) gives phrases; a phrase found in the title or
abstract scores its length in words (title hits count double), and sub-phrases split on commas
and "and"/"or" score a little less.  Single content words of the scope text add a small score,
divided among the categories sharing the word.  The best category wins when it clears a
threshold and beats the runner-up; otherwise (no evidence, or a tie) the paper is `Other`.
No network, no randomness: the same taxonomy and text always give the same answer.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from dataclasses import dataclass

from paperrank.classify.schema import Answer
from paperrank.core.taxonomy import Taxonomy

VERSION = "keywords-v1"
TITLE_WEIGHT = 2.0
PHRASE_WEIGHT = 1.5
SUBPHRASE_WEIGHT = 1.0
TOKEN_WEIGHT = 0.5
MAX_HITS = 3
MIN_SCORE = 3.0

STOPWORDS = frozenset(
    word
    for line in (
        "a an the and or of for with to in on at as by from into over no not any all its their",
        "this that these those new main point goal only merely rather than other others among",
        "via without where which whose is are be been being it fits fit belongs belong focus",
        "categories category paper papers anything outside assigned never chosen classifier",
        "labels recorded model models method methods learning ai ml based using use used",
        "general generic single multiple steps step work contribution type types data",
    )
    for word in line.split()
)


def normalize(text: str | None) -> str:
    """Lower-case, hyphens and punctuation to spaces, single-spaced, padded for matching."""
    text = (text or "").lower().replace("-", " ")
    text = re.sub(r"[^a-z0-9]+", " ", text)
    return f" {' '.join(text.split())} "


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _stem_text(normalized: str) -> str:
    return f" {' '.join(_stem(w) for w in normalized.split())} "


def _phrases(in_scope: str) -> list[tuple[str, float]]:
    """(stemmed phrase, weight) pairs of one category's scope list."""
    out: dict[str, float] = {}
    for raw in in_scope.split(";"):
        raw = re.sub(r"\([^)]*\)", " ", raw)
        whole = _stem_text(normalize(raw)).strip()
        if not whole:
            continue
        words = [w for w in whole.split() if w not in STOPWORDS]
        if words:
            out[whole] = max(out.get(whole, 0.0), PHRASE_WEIGHT * len(whole.split()))
        for part in re.split(r",|\band\b|\bor\b|/", raw):
            sub = _stem_text(normalize(part)).strip()
            content = [w for w in sub.split() if w not in STOPWORDS]
            if not content or sub == whole:
                continue
            if len(sub.split()) == 1 and len(sub) < 4:
                continue
            out.setdefault(sub, SUBPHRASE_WEIGHT * len(sub.split()))
    return sorted(out.items())


@dataclass(frozen=True)
class KeywordRules:
    taxonomy: Taxonomy
    phrases: dict[str, list[tuple[str, float]]]
    tokens: dict[str, dict[str, float]]
    hash: str

    def scores(self, title: str | None, abstract: str | None) -> dict[str, float]:
        title_text = _stem_text(normalize(title))
        body_text = _stem_text(normalize(abstract))
        words = set(title_text.split()) | set(body_text.split())
        totals: dict[str, float] = {}
        for category in self.taxonomy.choice_names:
            score = 0.0
            for phrase, weight in self.phrases.get(category, []):
                needle = f" {phrase} "
                hits = min(MAX_HITS, title_text.count(needle) * TITLE_WEIGHT
                           + body_text.count(needle))
                score += weight * hits
            for word, weight in self.tokens.get(category, {}).items():
                if word in words:
                    score += weight
            totals[category] = round(score, 6)
        return totals

    def classify(self, title: str | None, abstract: str | None) -> tuple[Answer, dict[str, float]]:
        scores = self.scores(title, abstract)
        fallback = self.taxonomy.fallback
        ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
        best, best_score = ranked[0]
        runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
        margin = best_score - runner_up
        if best_score < MIN_SCORE:
            return Answer(fallback, "low" if best_score > 0 else "medium",
                          "No focus-category terms were found in the title or abstract."), scores
        if margin <= 1e-9:
            tied = [c for c, s in ranked if s == best_score]
            return Answer(fallback, "low",
                          f"Keyword evidence is tied between {', '.join(tied)}."), scores
        confidence = "high" if margin >= 4 else "medium" if margin >= 1.5 else "low"
        matched = [p for p, _ in self.phrases.get(best, [])
                   if f" {p} " in _stem_text(normalize(f"{title} {abstract}"))][:3]
        because = f" (matched: {', '.join(matched)})" if matched else ""
        return Answer(best, confidence,
                      f"Scope terms of {best} dominate the title and abstract{because}."), scores


def build_rules(taxonomy: Taxonomy) -> KeywordRules:
    phrases = {c.name: _phrases(c.in_scope) for c in taxonomy.choices}
    owners: dict[str, set[str]] = defaultdict(set)
    for c in taxonomy.choices:
        text = _stem_text(normalize(re.sub(r"\([^)]*\)", " ", f"{c.in_scope} {c.description}")))
        for word in text.split():
            if word not in STOPWORDS and len(word) > 2 and not word.isdigit():
                owners[word].add(c.name)
    tokens: dict[str, dict[str, float]] = defaultdict(dict)
    for word, cats in owners.items():
        for name in cats:
            tokens[name][word] = TOKEN_WEIGHT / len(cats)
    rules_json = json.dumps(
        {"version": VERSION, "taxonomy": taxonomy.name, "phrases": phrases,
         "tokens": {k: dict(sorted(v.items())) for k, v in sorted(tokens.items())},
         "weights": [TITLE_WEIGHT, PHRASE_WEIGHT, SUBPHRASE_WEIGHT, TOKEN_WEIGHT, MAX_HITS,
                     MIN_SCORE]},
        sort_keys=True,
    )
    digest = hashlib.sha256(rules_json.encode("utf-8")).hexdigest()[:16]
    return KeywordRules(taxonomy, phrases, dict(tokens), digest)
