"""`python -m paperrank.classify <command>`: give every accepted paper one category of a taxonomy."""

import sys

from paperrank.core.dispatch import dispatch

COMMANDS = {
    "import": ("paperrank.ingest.labels", "import labels from CSV, parquet or JSONL"),
    "run": ("paperrank.classify.runner", "classify unlabeled accepted papers with an LLM or keywords"),
    "eval": ("paperrank.classify.evaluate", "agreement between two label sets"),
    "check": ("paperrank.classify.check", "check the LLM key and endpoint before a run"),
}

if __name__ == "__main__":
    sys.exit(dispatch("python -m paperrank.classify", __doc__, COMMANDS))
