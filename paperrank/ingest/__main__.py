"""`python -m paperrank.ingest <command>`: bring a venue's papers and reviews into the raw layer."""

import sys

from paperrank.core.dispatch import dispatch

COMMANDS = {
    "file": ("paperrank.ingest.paperlists", "load a paperlists-style file (parquet, JSON or JSONL)"),
    "notes": ("paperrank.ingest.notes", "load a snapshot or dump of OpenReview API v2 notes"),
    "openreview": ("paperrank.ingest.openreview", "fetch a venue from the OpenReview API v2, then load it"),
    "synthetic": ("paperrank.ingest.synthetic", "write a deterministic synthetic venue"),
}

if __name__ == "__main__":
    sys.exit(dispatch("python -m paperrank.ingest", __doc__, COMMANDS))
