"""`python -m quality <command>`: check the warehouse against its data contracts."""

import sys

from ingest.cli import dispatch

COMMANDS = {
    "validate": ("quality.validate", "run the great-expectations suites on the warehouse"),
}

if __name__ == "__main__":
    sys.exit(dispatch("python -m quality", __doc__, COMMANDS))
