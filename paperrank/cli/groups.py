"""The command groups of `paperrank`: each a LazyGroup whose commands load on first use."""

from __future__ import annotations

import click

from paperrank.cli.lazy import LazyGroup

INGEST = {
    "file": ("paperrank.ingest.paperlists:command", "load a paperlists-style file (parquet, JSON or JSONL)"),
    "notes": ("paperrank.ingest.notes:command", "load a snapshot or dump of OpenReview API v2 notes"),
    "openreview": ("paperrank.ingest.openreview:command", "fetch a venue from the OpenReview API v2, then load it"),
    "synthetic": ("paperrank.ingest.synthetic:command", "write a deterministic synthetic venue"),
}

CLASSIFY = {
    "import": ("paperrank.ingest.labels:command", "import labels from CSV, parquet or JSONL"),
    "run": ("paperrank.classify.runner:command", "classify unlabeled accepted papers with an LLM or keywords"),
    "eval": ("paperrank.classify.evaluate:command", "agreement between two label sets"),
    "check": ("paperrank.classify.check:command", "check the LLM key and endpoint before a run"),
}

QUALITY = {
    "validate": ("paperrank.quality.validate:command", "run the great-expectations suites on the warehouse"),
    "seeds": ("paperrank.quality.seeds:command", "check the seed CSVs (fields per line, declared types) before dbt"),
    "test-failures": ("paperrank.quality.test_failures:command",
                      "show the rows behind the last dbt run's failed tests"),
}


@click.group(cls=LazyGroup, lazy_subcommands=INGEST)
def ingest() -> None:
    """Bring a venue's papers and reviews into the raw layer (the working warehouse, PAPERRANK_DB)."""


@click.group(cls=LazyGroup, lazy_subcommands=CLASSIFY)
def classify() -> None:
    """Give every accepted paper one category of a taxonomy (an LLM, keywords, or imported labels)."""


@click.group(cls=LazyGroup, lazy_subcommands=QUALITY)
def quality() -> None:
    """Check the warehouse against its data contracts, the seeds before dbt, dbt's failed tests."""
