"""python -m paperrank.report [--db PATH] [--venue NAME] [--out-dir DIR]

Writes one self-contained HTML page per venue of the warehouse's marts (default: the published
warehouse, PAPERRANK_PUBLISHED_DB) and prints where each page is.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from paperrank.report import marts, render

DEFAULT_DB = Path("warehouse") / "published.duckdb"


def default_db() -> Path:
    return Path(os.environ.get("PAPERRANK_PUBLISHED_DB") or DEFAULT_DB)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m paperrank.report", description=__doc__.splitlines()[2])
    parser.add_argument("--db", type=Path, default=default_db(),
                        help="warehouse to read (default: PAPERRANK_PUBLISHED_DB, else %(default)s)")
    parser.add_argument("--venue", action="append",
                        help="venue to report on (repeatable; default: every ranked venue)")
    parser.add_argument("--out-dir", type=Path, default=Path("output") / "report",
                        help="folder for the pages (default: %(default)s)")
    parser.add_argument("--below", type=int, default=render.BELOW_CUT,
                        help="papers shown below each shortlist's cut (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.below < 0:
        parser.error(f"--below must be 0 or more, not {args.below}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        written = write_reports(args.db, args.out_dir, args.venue, args.below)
    except marts.MartsError as error:
        print(f"report: {error}", file=sys.stderr)
        return 1
    for venue, path in written:
        print(f"report for {venue}: {path}")
    return 0


def write_reports(db: Path, out_dir: Path, venues: list[str] | None = None,
                  below: int = render.BELOW_CUT) -> list[tuple[str, Path]]:
    """Render one page per venue (default: every ranked venue) of `db`'s marts; return
    (venue, page) pairs. `make report` and the pipeline's last step both come here."""
    con = marts.connect(db)
    try:
        marts.check_marts(marts.mart_columns(con))
        chosen = venues or marts.venues(con)
        if not chosen:
            raise marts.MartsError(f"{db} has no ranked papers (marts.paper_rankings is empty)")
        loaded = [marts.load_venue(con, venue) for venue in chosen]
    finally:
        con.close()
    return [(data.venue, render.write(data, out_dir, below).resolve()) for data in loaded]
