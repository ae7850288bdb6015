"""`python -m paperrank.quality <command>`: check the warehouse against its data contracts."""

import sys

from paperrank.core.dispatch import dispatch

COMMANDS = {
    "validate": ("paperrank.quality.validate", "run the great-expectations suites on the warehouse"),
    "seeds": ("paperrank.quality.seeds", "check the seed CSVs (fields per line, declared types) before dbt"),
    "test-failures": ("paperrank.quality.test_failures", "show the rows behind the last dbt run's failed tests"),
}

if __name__ == "__main__":
    sys.exit(dispatch("python -m paperrank.quality", __doc__, COMMANDS))
