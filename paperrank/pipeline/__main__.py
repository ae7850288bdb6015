"""`python -m paperrank.pipeline <command>`: build, audit, publish and export the rankings."""

import sys

from paperrank.core.dispatch import dispatch

COMMANDS = {
    "rank": ("paperrank.pipeline.rank", "checks, dbt build, audit, publish, export: everything after loading"),
    "publish": ("paperrank.publish.publish_build", "audit the working warehouse's marts and publish them"),
    "publications": ("paperrank.publish.publish_cli", "list the kept publications and which one is published"),
    "rollback": ("paperrank.publish.rollback", "point the published warehouse (and exports) at the previous build"),
    "export": ("paperrank.publish.export", "export the published build's CSVs"),
    "demo": ("paperrank.pipeline.demo", "the whole job offline on a synthetic venue, with a short summary"),
    "dbt": ("paperrank.pipeline.dbt_cli", "run a dbt command with the make settings, colour only on a terminal"),
}

if __name__ == "__main__":
    try:
        sys.exit(dispatch("python -m paperrank.pipeline", __doc__, COMMANDS))
    except RuntimeError as error:  # AuditFailed, DbtFailed, a failed demo step
        print(f"error: {error}", file=sys.stderr)
        sys.exit(1)
