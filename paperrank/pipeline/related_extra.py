"""The extra `related` before a build: its inputs computed from the build's settings.

Related papers, sub-themes, the label audit and the maps are computed in Python
(`paperrank.related`) into the working warehouse's `derived` schema, only where their inputs
changed, before the raw layer's fingerprint is taken (they do not touch the raw layer) and
before dbt reads them.
"""

from __future__ import annotations

from pathlib import Path

from paperrank.pipeline.settings import Settings


def refresh_related(chosen: Settings, working: Path) -> None:
    """The related extra's tables for `chosen`'s venue, taxonomy and labels, when the build
    holds the extra `related` (its module is imported only then: it loads scikit-learn)."""
    if "related" not in chosen.extras:
        return
    from paperrank.related.refresh import refresh

    extra = dict(chosen.extra)
    refresh(working, chosen.venue, taxonomy=chosen.taxonomy, label_model=chosen.label_model,
            related_papers=extra.get("related_papers"), say=lambda line: print(line, flush=True))
