"""`python -m pipeline <command>`: build, audit, publish and export the rankings."""

import sys

from ingest.cli import dispatch
from pipeline.dbt import DbtFailed
from pipeline.rank import AuditFailed

COMMANDS = {
    "rank": ("pipeline.rank", "checks, dbt build, audit, publish, export: everything after loading"),
    "publish": ("pipeline.publish_cli", "list the publications of the published warehouse"),
    "rollback": ("pipeline.rollback", "point the published warehouse (and exports) at the previous build"),
    "export": ("pipeline.export", "export the published build's CSVs"),
    "dbt": ("pipeline.dbt_cli", "run a dbt command with the make settings, colour only on a terminal"),
}

if __name__ == "__main__":
    try:
        sys.exit(dispatch("python -m pipeline", __doc__, COMMANDS))
    except (AuditFailed, DbtFailed) as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(1)
