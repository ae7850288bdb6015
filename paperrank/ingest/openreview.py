"""`paperrank ingest openreview --venue-id ID`: fetch a venue from OpenReview, then load it.

The fetch is written first to an immutable, timestamped snapshot (gzip JSON lines of the
notes exactly as received, by default under `snapshots/<venue-id-slug>/`), and that file is
then loaded exactly as `paperrank ingest notes` would, so every ranking can be rebuilt from
the snapshot without the network.  Set OPENREVIEW_USERNAME and OPENREVIEW_PASSWORD to log in;
they are used for the login request only and never printed or stored.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tqdm import tqdm

from paperrank.core import venue_name as venue_names
from paperrank.core.config import openreview_credentials
from paperrank.core.errors import PaperrankError
from paperrank.core.warehouse import connect
from paperrank.ingest.loaded import finish_load
from paperrank.ingest.notes import load_file
from paperrank.ingest.openreview_client import (
    DEFAULT_BASE_URL,
    DEFAULT_PAGE_SIZE,
    Credentials,
    OpenReviewClient,
    RetryPolicy,
)
from paperrank.ingest.profiles import Profile, resolve_profile
from paperrank.ingest.snapshots import default_dir, write_snapshot


def fetch_and_load(venue_id: str, base_url: str = DEFAULT_BASE_URL, snapshot_dir: Path | None = None,
                   venue: str | None = None, profile: str | None = None,
                   page_size: int = DEFAULT_PAGE_SIZE, attempts: int = RetryPolicy.attempts,
                   backoff: float = RetryPolicy.backoff_initial) -> None:
    """Fetch a venue into a new snapshot, then load that snapshot as `ingest notes` would."""
    venue = venue_name(venue_id) if venue is None else venue_names.check(venue, "--venue")
    form = _profile(venue, venue_id, profile)  # fail before a long crawl
    if page_size < 1 or attempts < 1 or backoff < 0:
        raise PaperrankError("--page-size and --attempts must be at least 1, --backoff not negative")
    policy = RetryPolicy(attempts=attempts, backoff_initial=backoff)
    client = OpenReviewClient(base_url, credentials_from_env(), policy,
                              log=lambda message: tqdm.write(message, file=sys.stderr))
    try:
        path, count = fetch_snapshot(client, venue_id, snapshot_dir or default_dir(venue_id),
                                     page_size)
    finally:
        client.close()
    print(f"snapshot: {path} ({client.last_crawl.summary()})")
    con = connect()
    try:
        summary, report = load_file(con, path, venue, form)
    finally:
        con.close()
    print(report.render())
    finish_load(summary)


def fetch_snapshot(client: OpenReviewClient, venue_id: str, directory: Path,
                   page_size: int = DEFAULT_PAGE_SIZE, progress: bool = True) -> tuple[Path, int]:
    """Log in if configured, page through the venue's submissions and write the snapshot."""
    taken_at = datetime.now(UTC)
    client.login()
    with tqdm(desc=f"fetching {venue_id}", unit=" notes", file=sys.stderr,
              disable=not progress) as bar:
        def set_total(total: int) -> None:
            bar.total = total
            bar.refresh()

        def counted() -> Iterator[dict[str, Any]]:
            for note in client.iter_submissions(venue_id, page_size, on_total=set_total):
                bar.update(1)
                yield note

        path, count = write_snapshot(counted(), directory, venue_id, taken_at)
    if count == 0:
        print(f"warning: {venue_id} has no submissions at {client.base_url}; is the venue id "
              "right?", file=sys.stderr)
    return path, count


def credentials_from_env() -> Credentials | None:
    """Credentials from OPENREVIEW_USERNAME / OPENREVIEW_PASSWORD, or None to stay anonymous."""
    username, password = openreview_credentials()
    if not username and not password:
        return None
    if not username or not password:
        raise PaperrankError("set both OPENREVIEW_USERNAME and OPENREVIEW_PASSWORD, or neither")
    return Credentials(username, password)


def venue_name(venue_id: str) -> str:
    """A readable venue name from its id: "ICML.cc/2026/Conference" -> "ICML 2026"."""
    parts = venue_id.split("/")
    year = next((p for p in parts if re.fullmatch(r"\d{4}", p)), None)
    organiser = parts[0].split(".")[0]
    return f"{organiser} {year}" if organiser and year else venue_id


def _profile(venue: str, venue_id: str, explicit: str | None) -> Profile:
    """The profile named, else the one for the venue name, else the one for the venue id."""
    try:
        return resolve_profile(venue, explicit)
    except PaperrankError:
        if explicit:
            raise
        return resolve_profile(venue_id)
