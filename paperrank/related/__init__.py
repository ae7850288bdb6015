"""Related papers, sub-themes and the label audit: offline text similarity before dbt.

`refresh(db, venue)` computes what is missing or stale into the `derived` schema, which dbt
reads as a source (models/staging/derived/, marts in models/marts/related/).  The method is
TF-IDF blended with its latent semantic analysis (paperrank.related.method); the measures and
costs are in docs/related-papers.md.  scikit-learn is imported only when `refresh` runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def refresh(db: Path | str | None = None, venue: str | None = None, **options: Any) -> Any:
    """paperrank.related.refresh.refresh, imported on first use."""
    from paperrank.related.refresh import refresh as run

    return run(db, venue, **options)
