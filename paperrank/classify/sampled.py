"""`classify run --strategy sampled`: the LLM only where a classifier is unsure, and how well it went.

1. **Sample.** A paper is in the sample when a hash of the seed and its id falls below
   `sample_share` (at least `sample_min` papers): the same papers on every run, and a paper keeps
   its place when others are added.  The LLM labels the sample.
2. **Train.** A classifier (paperrank.related.classifier: logistic regression on the latent
   semantic vectors of every paper in scope) learns the sample's LLM labels, and only those, so
   a resumed run trains the very same classifier.
3. **Label.** The papers outside the sample that it gives a probability of at least `confidence`
   get its label (backend `classifier`, model `classifier:<LLM model>`, their own prompt hash,
   source `classify:classifier` in raw.paper_labels: never mistaken for the LLM's); the others, and
   a random check sample of `check_share` of them (drawn like the sample), go to the LLM.
4. **Report.** Papers the LLM labelled and the calls saved, and the classifier's agreement with
   the LLM on the check sample: on all of it, and on its confident part (the estimate of how
   often a classifier label differs from what the LLM would have said).

The LLM's answers go through the same store, cache and failure accounting as `classify run`:
an answered paper is never asked again, a failed one is retried on the next run.  While a
sample paper has no answer the classifier does not train (the run stops after the sample and
exits 1, as for any failure), unless `--skip-failed` leaves such papers out.  On ICLR 2026
(docs/related-papers.md) the defaults ask the LLM about 48% of the papers and agree with
labelling every paper on 0.98 of them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import duckdb
import numpy as np

from paperrank.classify.config import SampledConfig
from paperrank.classify.store import Paper, ResponseStore
from paperrank.core.taxonomy import Taxonomy
from paperrank.related.corpus import paper_text
from paperrank.related.method import METHOD

BACKEND = "classifier"
Ask = Callable[[list[Paper]], list[Any]]  # send papers to the LLM; returns their outcomes


@dataclass
class SampledReport:
    """What the sampled strategy did for the papers in scope (over every run so far)."""

    papers: int = 0
    sample: int = 0
    check: int = 0
    unsure: int = 0
    classifier_labelled: int = 0
    llm_labelled: int = 0
    check_answered: int = 0
    check_agreeing: int = 0
    check_confident: int = 0
    check_confident_agreeing: int = 0
    stopped: str | None = None
    model: str = ""

    def lines(self) -> list[str]:
        n = max(self.papers, 1)
        lines = [f"sampled: {self.papers} papers in scope; sample {self.sample}, check sample "
                 f"{self.check}, unsure {self.unsure}"]
        if self.stopped:
            return [*lines, f"sampled: stopped before training: {self.stopped}"]
        lines.append(f"LLM calls (papers labelled by the LLM): {self.llm_labelled} of {self.papers} "
                     f"({self.llm_labelled / n:.1%}); calls saved: {self.classifier_labelled} "
                     f"({self.classifier_labelled / n:.1%}, labelled by {self.model})")
        if self.check_answered:
            lines.append(f"check sample agreement: {self.check_agreeing / self.check_answered:.3f} "
                         f"({self.check_agreeing} of {self.check_answered}); on its confident part "
                         + (f"{self.check_confident_agreeing / self.check_confident:.3f} "
                            f"({self.check_confident_agreeing} of {self.check_confident})"
                            if self.check_confident else "none"))
            if self.check_confident:
                wrong = 1 - self.check_confident_agreeing / self.check_confident
                lines.append(f"estimated agreement with labelling every paper by the LLM: "
                             f"{1 - wrong * self.classifier_labelled / n:.3f}")
        return lines


def draw(seed: int, paper_id: str, salt: str) -> float:
    """A paper's uniform draw in [0, 1): the same for the same seed, salt and paper."""
    digest = hashlib.sha256(f"{seed}\0{salt}\0{paper_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def classifier_identity(llm_model: str, llm_prompt_hash: str, settings: SampledConfig) -> tuple[str, str]:
    """The classifier's model name and prompt hash: which LLM labels it learns, and how."""
    text = json.dumps({"method": METHOD.key(), "llm_model": llm_model, "llm_prompt": llm_prompt_hash,
                       "sample_share": settings.sample_share, "sample_min": settings.sample_min,
                       "confidence": settings.confidence, "seed": settings.seed}, sort_keys=True)
    return f"{BACKEND}:{llm_model}", hashlib.sha256(text.encode()).hexdigest()[:16]


def scope_papers(con: duckdb.DuckDBPyConnection, venue: str | None,
                 skip_areas: Sequence[str]) -> list[tuple[Paper, str]]:
    """Every accepted paper in scope (as `pending_papers` scopes them) with its text, by id."""
    rows = con.execute(
        """
        select paper_id, title, abstract, primary_area, keywords from raw.papers
        where is_accepted and ($venue is null or venue = $venue)
          and not list_contains($skip_areas, lower(trim(coalesce(primary_area, ''))))
        order by paper_id
        """, {"venue": venue, "skip_areas": [a.strip().lower() for a in skip_areas]}).fetchall()
    return [(Paper(p, t, a, area), paper_text(t, a, k)) for p, t, a, area, k in rows]


def labels_of(con: duckdb.DuckDBPyConnection, taxonomy: str, model: str, prompt_hash: str) -> dict[str, str]:
    """Each paper's latest label of this taxonomy, model and prompt."""
    rows = con.execute(
        """
        select paper_id, arg_max(category, labeled_at) from raw.paper_labels
        where taxonomy = ? and model = ? and prompt_hash = ?
        group by paper_id
        """, [taxonomy, model, prompt_hash]).fetchall()
    return dict(rows)


def run(con: duckdb.DuckDBPyConnection, taxonomy: Taxonomy, llm_model: str, llm_prompt_hash: str,
        settings: SampledConfig, papers: list[tuple[Paper, str]], ask: Ask, skip_failed: bool,
        failed_before: set[str], materialize: Callable[[], int]) -> SampledReport:
    """The sampled strategy over `papers` (the scope, by paper id); `ask` sends papers to the LLM
    (answers stored and labelled as `classify run` does), `failed_before` are the papers
    --skip-failed leaves out."""
    model, classifier_hash = classifier_identity(llm_model, llm_prompt_hash, settings)
    report = SampledReport(papers=len(papers), model=model)
    share = max(settings.sample_share, min(1.0, settings.sample_min / max(len(papers), 1)))
    ids = [paper.paper_id for paper, _ in papers]
    in_sample = np.array([draw(settings.seed, p, "sample") < share for p in ids], dtype=bool)
    in_check = np.array([draw(settings.seed, p, "check") < settings.check_share for p in ids]) & ~in_sample
    report.sample, report.check = int(in_sample.sum()), int(in_check.sum())

    def unanswered(rows: np.ndarray) -> list[Paper]:
        done = labels_of(con, taxonomy.name, llm_model, llm_prompt_hash)
        return [papers[i][0] for i in np.flatnonzero(rows)
                if ids[i] not in done and not (skip_failed and ids[i] in failed_before)]

    ask(unanswered(in_sample))
    llm = labels_of(con, taxonomy.name, llm_model, llm_prompt_hash)
    missing = [ids[i] for i in np.flatnonzero(in_sample) if ids[i] not in llm]
    if missing and not skip_failed:
        report.stopped = (f"{len(missing)} sample papers have no LLM answer yet; the classifier learns "
                          "the whole sample (run again to retry them, or --skip-failed)")
        return report
    train = np.array([i for i in np.flatnonzero(in_sample) if ids[i] in llm], dtype=np.int64)
    rest = np.flatnonzero(~in_sample)
    if len(rest) == 0 or len(train) < 2 or len({llm[ids[i]] for i in train}) < 2:
        # nothing left to label, or nothing to learn from: the LLM labels every paper
        confident = np.zeros(len(rest), dtype=bool)
        predicted = np.array([None] * len(rest), dtype=object)
        probability = np.zeros(len(rest))
    else:
        from threadpoolctl import threadpool_limits

        from paperrank.related.classifier import fit_predict
        from paperrank.related.vectors import embed

        with threadpool_limits(1):
            lsa = embed([text for _, text in papers], METHOD).lsa
        result = fit_predict(lsa, train, [llm[ids[i]] for i in train], rest, METHOD)
        predicted, probability = result.category, result.probability
        confident = probability >= settings.confidence
    # the classifier's labels first (instant), so a run killed while the LLM works keeps them
    keep = confident & ~in_check[rest]
    mine = labels_of(con, taxonomy.name, model, classifier_hash)
    new = [(papers[i][0], str(predicted[j]), float(probability[j])) for j, i in enumerate(rest)
           if keep[j] and ids[i] not in mine and ids[i] not in llm]
    _record(con, taxonomy.name, model, classifier_hash, new, len(train), llm_model)
    materialize()
    report.unsure = int((~confident).sum())
    to_llm = np.zeros(len(ids), dtype=bool)
    to_llm[rest[~confident | in_check[rest]]] = True
    ask(unanswered(to_llm))
    llm = labels_of(con, taxonomy.name, llm_model, llm_prompt_hash)
    mine = labels_of(con, taxonomy.name, model, classifier_hash)
    report.llm_labelled = sum(p in llm for p in ids)
    report.classifier_labelled = sum(p in mine and p not in llm for p in ids)
    for j, i in enumerate(rest):
        if in_check[i] and ids[i] in llm:
            agrees = predicted[j] == llm[ids[i]]
            report.check_answered += 1
            report.check_agreeing += int(agrees)
            if confident[j]:
                report.check_confident += 1
                report.check_confident_agreeing += int(agrees)
    return report


def _record(con: duckdb.DuckDBPyConnection, taxonomy: str, model: str, prompt_hash: str,
            labels: list[tuple[Paper, str, float]], trained_on: int, llm_model: str) -> None:
    """Store the classifier's labels as answers of backend `classifier` (then labelled as the
    LLM's answers are, with source classify:classifier)."""
    if not labels:
        return
    store = ResponseStore(con)
    try:
        now = datetime.now(UTC)
        for paper, category, probability in labels:
            rationale = (f"classifier trained on {trained_on} labels of {llm_model}: "
                         f"probability {probability:.3f}")
            store.record({
                "paper_id": paper.paper_id, "taxonomy": taxonomy, "backend": BACKEND, "model": model,
                "prompt_hash": prompt_hash, "status": "ok", "category": category,
                "confidence": "high" if probability >= 0.97 else "medium", "rationale": rationale,
                "attempt": 0, "latency_ms": 0.0, "requested_at": now, "prompt_tokens": 0,
                "completion_tokens": 0, "total_tokens": 0, "response_model": model,
                "raw_response": json.dumps({"category": category, "probability": round(probability, 6),
                                            "trained_on": trained_on}),
            })
    finally:
        store.close()  # every row written before the LLM is asked
