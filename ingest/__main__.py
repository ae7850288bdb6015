"""`python -m ingest <command>`: bring a venue's papers and reviews into the raw layer."""

import sys

from ingest.cli import dispatch

COMMANDS = {
    "file": ("ingest.paperlists", "load a paperlists-style file (parquet, JSON or JSONL)"),
    "notes": ("ingest.notes", "load a snapshot or dump of OpenReview API v2 notes"),
    "openreview": ("ingest.openreview", "fetch a venue from the OpenReview API v2, then load it"),
    "synthetic": ("ingest.synthetic", "write a deterministic synthetic venue"),
}

if __name__ == "__main__":
    sys.exit(dispatch("python -m ingest", __doc__, COMMANDS))
