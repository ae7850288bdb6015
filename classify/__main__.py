"""`python -m classify <command>`: give every accepted paper one category of a taxonomy."""

import sys

from ingest.cli import dispatch

COMMANDS = {
    "import": ("classify.importer", "import labels from CSV, parquet or JSONL"),
    "run": ("classify.runner", "classify unlabeled accepted papers with an LLM or keywords"),
    "eval": ("classify.evaluate", "agreement between two label sets"),
    "check": ("classify.check", "check the LLM key and endpoint before a run"),
}

if __name__ == "__main__":
    sys.exit(dispatch("python -m classify", __doc__, COMMANDS))
