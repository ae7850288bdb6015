"""`python -m paperrank.pipeline publish`: audit what `make build` left in the working warehouse, publish it.

For an operator who ran dbt by hand: the mart checks and the marts-agree check run first, and
nothing is published unless both pass (run `dbt build`, with its tests, before this).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from paperrank.core.errors import PaperrankError
from paperrank.core.warehouse import db_path
from paperrank.pipeline import rank, settings
from paperrank.pipeline.gates import Gates
from paperrank.pipeline.rank import Steps
from paperrank.publish.locks import check_writable


def add_arguments(parser: argparse.ArgumentParser) -> None:
    settings.add_arguments(parser)
    parser.add_argument("--log", type=Path, default=rank.DEFAULT_LOG,
                        help=f"file the quality reports are appended to (default {rank.DEFAULT_LOG})")


def run(args: argparse.Namespace) -> int:
    working = db_path()
    if not working.exists():
        raise PaperrankError(f"no working warehouse at {working}; load data and run make build first")
    check_writable(working)
    args.log.parent.mkdir(parents=True, exist_ok=True)
    chosen = settings.from_args(args)
    gates = Gates(chosen, args.log)
    try:
        steps = Steps(4)
        steps.run("raw checks", gates.raw)
        rank.audit_and_publish(chosen, args.log, steps, gates)
    finally:
        gates.stop()
    return 0
