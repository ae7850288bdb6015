"""Compute what is missing or stale: related papers, sub-themes, maps and the label audit, per venue.

The one entry point (`refresh`), called by `paperrank related` and by `paperrank rank` before
the raw layer's fingerprint is taken.  For each venue it reads the accepted papers' texts and
the labels dbt will use, hashes them, and computes only the parts whose inputs or method changed
since they were stored (paperrank.related.store): a rebuild with unchanged papers reads and
hashes, nothing more.  A corpus-wide method cannot do less than a venue: one changed abstract
changes the TF-IDF weights and the latent space of every paper, so related papers are
recomputed for the whole venue, and sub-themes, the maps (paperrank.related.layout) and the
audit whenever the texts or the labels changed.  Labels alone changing (a new label import) keeps the related papers.

BLAS and OpenMP run on one thread here, so that the same inputs give the same floats on any
machine (and no thread pool spins against the other builds of a busy machine).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

if TYPE_CHECKING:  # a type only: pandas is imported when something is computed
    import pandas as pd

from paperrank.core.errors import PaperrankError
from paperrank.core.seeds import project_vars
from paperrank.core.warehouse import connect
from paperrank.related import corpus as corpora
from paperrank.related import store
from paperrank.related.labels import classifier_choices, latest_labels, ranked_categories
from paperrank.related.layout_method import LAYOUT_METHOD
from paperrank.related.method import METHOD, Method


@dataclass(frozen=True)
class PartResult:
    venue: str
    part: str
    computed: bool
    papers: int
    rows: int
    seconds: float
    note: str = ""  # what the summary adds (the maps: their trustworthiness)

    def __str__(self) -> str:
        what = {"related": "related papers", "subthemes": "sub-themes", "audit": "label audit",
                "layouts": "maps"}[self.part]
        if not self.computed:
            return f"{self.venue}: {what} kept (inputs unchanged)"
        note = f", {self.note}" if self.note else ""
        return (f"{self.venue}: {what} computed: {self.rows:,} rows for {self.papers:,} papers "
                f"({self.seconds:.1f} s){note}")


def default_related_papers() -> int:
    return int(project_vars()["related_papers"])


def refresh(db: Path | str | None = None, venue: str | None = None, *, taxonomy: str | None = None,
            label_model: str | None = None, related_papers: int | None = None,
            method: Method = METHOD, say: Callable[[str], None] = print) -> list[PartResult]:
    """Bring the derived tables up to date for `venue` (every venue with accepted papers when
    None), for `taxonomy` (the dbt var's default when None) and `label_model`."""
    k = default_related_papers() if related_papers is None else related_papers
    chosen = taxonomy or str(project_vars()["taxonomy"])
    con = connect(db)
    results: list[PartResult] = []
    try:
        store.ensure(con)
        names = corpora.venues(con, venue)
        if venue is not None and not names:
            raise PaperrankError(f"venue {venue!r} has no accepted papers in raw.papers")
        for name in names:
            for result in _refresh_venue(con, name, chosen, label_model, k, method):
                say(str(result))
                results.append(result)
    finally:
        con.close()
    return results


def _key(*parts: object) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(repr(part).encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()[:32]


def _refresh_venue(con: duckdb.DuckDBPyConnection, venue: str, taxonomy: str, label_model: str | None, k: int,
                   method: Method) -> list[PartResult]:
    corpus = corpora.load(con, venue)
    labelled = latest_labels(con, venue, taxonomy, label_model)
    ranked = ranked_categories(taxonomy)
    choices = classifier_choices(taxonomy)
    model_key = label_model or ""
    members = [(item.paper_id, item.category) for item in labelled if item.category in ranked]
    plans = {
        store.Scope(venue, "related"): (corpus.key(), k),
        store.Scope(venue, "subthemes", taxonomy, model_key): (_key(corpus.key(), sorted(ranked), members), 0),
        store.Scope(venue, "layouts", taxonomy, model_key): (_key(corpus.key(), sorted(ranked), members), 0),
        store.Scope(venue, "audit", taxonomy, model_key): (
            _key(corpus.key(), sorted(choices), [(i.paper_id, i.label) for i in labelled]), 0),
    }
    method_key = method.key()
    # the maps depend on the layout's constants too, and on nothing else of the text method's
    layout_key = _key(method_key, LAYOUT_METHOD.key())
    keys = {scope: layout_key if scope.part == "layouts" else method_key for scope in plans}
    todo = {scope: key for scope, key in plans.items()
            if not store.kept(con, scope, key[0], keys[scope], key[1])}
    results = [PartResult(venue, scope.part, False, len(corpus), 0, 0.0) for scope in plans if scope not in todo]
    if not todo:
        return results
    from threadpoolctl import threadpool_limits  # scikit-learn's, only when something is computed

    from paperrank.related import compute
    from paperrank.related.vectors import embed

    with threadpool_limits(1):
        started = time.perf_counter()
        vectors = embed(corpus.texts, method)
        shared = time.perf_counter() - started  # the vectors serve every part computed now
        for scope, (input_key, related) in todo.items():
            started = time.perf_counter()
            if scope.part == "related":
                frames = compute.related(corpus, vectors, k, method)
            elif scope.part == "subthemes":
                frames = compute.subthemes(corpus, vectors, scope, labelled, ranked, method)
            elif scope.part == "layouts":
                frames = compute.layouts(corpus, vectors, scope, labelled, ranked, LAYOUT_METHOD)
            else:
                frames = compute.audit_frame(corpus, vectors, scope, labelled, choices, method)
            seconds = time.perf_counter() - started + shared
            rows = len(frames[-1])
            store.replace(con, scope, frames, {"input_key": input_key, "method_key": keys[scope],
                                               "related_papers": related, "papers": len(corpus),
                                               "rows": rows, "seconds": seconds,
                                               "vector_seconds": shared})
            note = _trust_note(frames[0]) if scope.part == "layouts" else ""
            results.append(PartResult(venue, scope.part, True, len(corpus), rows, seconds, note))
    return results


def _trust_note(quality: pd.DataFrame) -> str:
    """The maps' trustworthiness as the build's summary says it (lowest, then the venue's)."""
    measured = quality.dropna(subset=["trustworthiness"])
    if measured.empty:
        return "trustworthiness not measured (too few papers)"
    venue = measured[measured.layout_category == ""].trustworthiness
    whole = f", the venue's {venue.iloc[0]:.3f}" if len(venue) else ""
    return f"trustworthiness at 5 neighbours lowest {measured.trustworthiness.min():.3f}{whole}"
