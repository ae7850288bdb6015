"""`paperrank ingest`: the loaders' commands (file, notes, openreview, synthetic).

Each command parses its options and calls one loader of `paperrank.ingest`; the loader is
imported inside the command so that running one loader never imports another's libraries.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import click

from paperrank.cli.lazy import LazyGroup
from paperrank.core.config import ICML_2026_ACCEPTED
from paperrank.ingest.openreview_client import DEFAULT_BASE_URL, DEFAULT_PAGE_SIZE, RetryPolicy

COMMANDS = {
    "file": ("paperrank.cli.ingest:file_command", "load a paperlists-style file (parquet, JSON or JSONL)"),
    "notes": ("paperrank.cli.ingest:notes", "load a snapshot or dump of OpenReview API v2 notes"),
    "openreview": ("paperrank.cli.ingest:openreview", "fetch a venue from the OpenReview API v2, then load it"),
    "synthetic": ("paperrank.cli.ingest:synthetic", "write a deterministic synthetic venue"),
}


@click.group(cls=LazyGroup, lazy_subcommands=COMMANDS)
def ingest() -> None:
    """Bring a venue's papers and reviews into the raw layer (the working warehouse, PAPERRANK_DB)."""


@click.command("file")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--venue", required=True, help='venue name stored with each paper, e.g. "ICLR 2026"')
@click.option("--profile", help="review-form profile (default: derived from --venue)")
@click.option("--snapshot-at", type=datetime.fromisoformat,
              help="when the file's scores were taken (ISO time; default: the file's modification time)")
def file_command(path: Path, venue: str, profile: str | None, snapshot_at: datetime | None) -> None:
    """Load a paperlists-style file: one record per paper with per-reviewer score lists.

    This is the layout of public dumps such as `accepted_papers.parquet` (ICLR 2026): the i-th
    element of `rating`, `confidence`, `soundness`, `contribution` and `presentation` is the i-th
    reviewer's score. Such dumps carry no review ids, so a stable one is derived from the paper id
    and the reviewer's position. JSON versions sometimes hold the lists as `;`-joined strings.
    Whether a paper was accepted follows `paperrank.ingest.status`, the rule the notes loader applies too.
    """
    from paperrank.ingest.paperlists import load

    load(path, venue, profile, snapshot_at)


@click.command("notes")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--venue", required=True, help='venue name stored with every paper, e.g. "ICLR 2026"')
@click.option("--profile", help="review-form profile (default: found from --venue)")
def notes(path: Path, venue: str, profile: str | None) -> None:
    """Load a snapshot or dump of OpenReview API v2 notes (submissions with their replies).

    The notes are parsed by `paperrank.ingest.notes_parser` (what counts as a record, how versions fold),
    whether a paper was accepted is decided by `paperrank.ingest.status` (the rule every loader applies),
    and the batch is written through `paperrank.core.loads`.

    The snapshot time of a load is the time in the snapshot's file name, else the newest
    `mdate` in the file, else the file's modification time; so loading the same file twice is
    a no-op and a newer snapshot replaces the current rows while `raw.review_history` keeps the
    older scores.
    """
    from paperrank.ingest.notes import load_notes

    load_notes(path, venue, profile)


@click.command("openreview")
@click.option("--venue-id", required=True, help="OpenReview venue id, e.g. ICML.cc/2026/Conference")
@click.option("--base-url", default=DEFAULT_BASE_URL, help=f"API v2 server (default {DEFAULT_BASE_URL})")
@click.option("--snapshot-dir", type=click.Path(path_type=Path),
              help="where to write the snapshot (default snapshots/<venue-id-slug>/)")
@click.option("--venue", help='venue name stored with each paper (default from the venue id, e.g. "ICML 2026")')
@click.option("--profile", help="review-form profile (default: found from the venue)")
@click.option("--page-size", type=int, default=DEFAULT_PAGE_SIZE,
              help=f"notes per request (default {DEFAULT_PAGE_SIZE}, the API maximum)")
@click.option("--attempts", type=int, default=RetryPolicy.attempts,
              help=f"tries per request before giving up (default {RetryPolicy.attempts})")
@click.option("--backoff", type=float, default=RetryPolicy.backoff_initial,
              help=f"seconds before the first retry, doubled after each failure "
                   f"(default {RetryPolicy.backoff_initial}; a longer Retry-After always wins)")
def openreview(venue_id: str, base_url: str, snapshot_dir: Path | None, venue: str | None,
               profile: str | None, page_size: int, attempts: int, backoff: float) -> None:
    """`paperrank ingest openreview --venue-id ID`: fetch a venue from OpenReview, then load it.

    The fetch is written first to an immutable, timestamped snapshot (gzip JSON lines of the
    notes exactly as received, by default under `snapshots/<venue-id-slug>/`), and that file is
    then loaded exactly as `paperrank ingest notes` would, so every ranking can be rebuilt from
    the snapshot without the network.  Set OPENREVIEW_USERNAME and OPENREVIEW_PASSWORD to log in;
    they are used for the login request only and never printed or stored.
    """
    from paperrank.ingest.openreview import fetch_and_load

    fetch_and_load(venue_id, base_url, snapshot_dir, venue, profile, page_size, attempts, backoff)


@click.command("synthetic")
@click.option("--out", type=click.Path(path_type=Path), required=True,
              help="paperlists file to write (.parquet or .jsonl)")
@click.option("--papers", type=int, default=ICML_2026_ACCEPTED,
              help=f"accepted papers (default {ICML_2026_ACCEPTED}, ICML 2026's count)")
@click.option("--seed", type=int, default=2026, show_default=True)
@click.option("--venue", default="SYNTH 2026", show_default=True)
@click.option("--labels-out", type=click.Path(path_type=Path),
              help="also write the true theme of each paper (parquet: paper_id, category)")
def synthetic(out: Path, papers: int, seed: int, venue: str, labels_out: Path | None) -> None:
    """A deterministic synthetic venue: plausible papers, ICLR-like reviews, and its true themes.

    The demo must run with no network and no real data, and the benchmarks need venues of any
    size, so both draw from this one generator. The same seed always gives the same venue.
    Reviews follow ICLR 2026's form (rating in {0,2,4,6,8,10}, confidence 1-5, the rest 1-4) and
    are driven by a latent paper quality, so the ranking has structure to find. The true theme of
    each paper is kept beside it (`--labels-out`), which lets the offline classifier be scored.
    """
    from paperrank.ingest.synthetic import write_venue

    write_venue(out, papers, seed, venue, labels_out)
