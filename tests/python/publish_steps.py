"""The steps of `paperrank rank` after its audit, alone: publish the working warehouse's build,
export its CSVs, draw its report (the publish door the pipeline calls,
`paperrank.publish.delivery.deliver`, its steps numbered as after the build and the audit).

test_publish.py runs them in a child process on a copy of a venue whose next build is already
built and audited, and kills it with SIGKILL at each step: the build is made once, not once per
kill. The child is forked from a multiprocessing fork server that imported every module the
steps use (PRELOAD) once, `run` in the child: each kill hits a process of its own that runs only
these steps, without a Python start-up and its imports each. Usage as a command: python
publish_steps.py EXPORT_DIR REPORT_DIR (PAPERRANK_DB, PAPERRANK_PUBLISHED_DB from the environment).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from paperrank.core.steps import Steps
from paperrank.core.warehouse import db_path, one_row, open_duckdb
from paperrank.publish import delivery

# what the steps import, for a fork server to import before it forks (by names the installed
# package answers to: Python 3.11's fork server imports them without the tests' sys.path)
PRELOAD = ["paperrank.publish.delivery", "paperrank.publish.category_csvs", "paperrank.report.pages"]


def main(export_dir: Path, report_dir: Path) -> None:
    con = open_duckdb(db_path(), read_only=True)
    try:
        (venue,) = one_row(con, "select min(venue) from marts.build_settings")
    finally:
        con.close()
    destination = delivery.Destination.checked(venue, export_dir, report_dir)
    delivery.deliver(db_path(), destination, steps=Steps(3))


def run(env: dict[str, str], folder: str, export_dir: str, report_dir: str, printed: str) -> None:
    """The steps in a forked child: with the environment `env` only (as a process started with
    it), in `folder`, everything it prints (its file descriptors 1 and 2 too) to the file
    `printed`."""
    os.environ.clear()
    os.environ.update(env)
    os.chdir(folder)
    out = open(printed, "w", buffering=1, encoding="utf-8")  # noqa: SIM115 (the child's stdout until it ends)
    os.dup2(out.fileno(), 1)
    os.dup2(out.fileno(), 2)
    sys.stdout = sys.stderr = out
    main(Path(export_dir), Path(report_dir))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
