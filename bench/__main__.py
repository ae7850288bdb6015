"""`python -m bench` (`make bench`): the ranking benchmark at every scale.

    python -m bench [--scales real,10k,100k,1m,1m-ranked,1m-many,1m-short] [--runs 3] [--runs-1m N]
                    [--out output/bench/ranking.csv] [--work output/bench/work] [--keep]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bench import ranking


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description="Time the project's dbt ranking and export against the one-statement "
                    "DuckDB limit and a pandas implementation; print and save the table.")
    parser.add_argument("--scales", default="real,10k,100k,1m,1m-ranked,1m-many,1m-short",
                        help=f"comma-separated, of {', '.join(ranking.SCALES)} "
                             "(default: all)")
    parser.add_argument("--runs", type=int, default=3,
                        help="runs per scale; the table shows medians (default 3)")
    parser.add_argument("--runs-1m", type=int, default=None,
                        help="runs at each 1m scale if different from --runs")
    parser.add_argument("--out", type=Path, default=Path("output/bench/ranking.csv"),
                        help="CSV of the table (default output/bench/ranking.csv)")
    parser.add_argument("--work", type=Path, default=Path("output/bench/work"),
                        help="scratch folder for warehouses, dbt target/logs and exports")
    parser.add_argument("--keep", action="store_true",
                        help="keep each scale's warehouse file afterwards")
    args = parser.parse_args(argv)
    scales = [s.strip().lower() for s in args.scales.split(",") if s.strip()]
    unknown = [s for s in scales if s not in ranking.SCALES]
    if unknown or not scales:
        parser.error(f"unknown scale(s) {unknown}; choose from {', '.join(ranking.SCALES)}")
    if args.runs < 1 or (args.runs_1m is not None and args.runs_1m < 1):
        parser.error("runs must be at least 1")
    return ranking.run(scales, args.runs, args.out.resolve(), args.work.resolve(), args.keep,
                       args.runs_1m)


if __name__ == "__main__":
    raise SystemExit(main())
