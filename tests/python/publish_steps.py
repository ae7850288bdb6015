"""The steps of `paperrank rank` after its audit, alone: publish the working warehouse's build,
export its CSVs, draw its report (`paperrank.pipeline.rank`'s own functions, numbered as the
pipeline numbers its steps after the build and the audit).

test_publish.py starts this as a child process on a copy of a venue whose next build is already
built and audited, and kills it with SIGKILL at each step: the build is made once, not once per
kill. Usage: python publish_steps.py EXPORT_DIR REPORT_DIR (PAPERRANK_DB, PAPERRANK_PUBLISHED_DB
from the environment).
"""

from __future__ import annotations

import sys
from pathlib import Path

from paperrank.core.warehouse import db_path, one_row, open_duckdb
from paperrank.pipeline import rank


def main(export_dir: Path, report_dir: Path) -> None:
    con = open_duckdb(db_path(), read_only=True)
    try:
        (venue,) = one_row(con, "select min(venue) from marts.build_settings")
    finally:
        con.close()
    steps = rank.Steps(3)
    rank.publish_build(steps, "duckdb", None)
    rank.deliver(steps, export_dir, report_dir, venue, False, False)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
