"""`python -m quality <command>`: check the warehouse against its data contracts."""

import sys

from ingest.cli import dispatch

COMMANDS = {
    "validate": ("quality.validate", "run the great-expectations suites on the warehouse"),
    "seeds": ("quality.seeds", "check the seed CSVs (fields per line, declared types) before dbt"),
    "test-failures": ("quality.test_failures", "show the rows behind the last dbt run's failed tests"),
}

if __name__ == "__main__":
    sys.exit(dispatch("python -m quality", __doc__, COMMANDS))
