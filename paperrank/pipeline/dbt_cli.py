"""`python -m paperrank.pipeline dbt [settings] -- <dbt args>`: dbt with the make settings.

The make targets that run dbt alone (build, docs) go through here: the vars come from the
settings flags, colour is on only on a terminal, a lock held by another process is one line,
and a command that only reads (docs generate, test, show, ...) refuses a missing warehouse.
"""

from __future__ import annotations

import argparse

from paperrank.core.errors import PaperrankError
from paperrank.core.warehouse import db_path
from paperrank.engines import dbt_target
from paperrank.pipeline import settings
from paperrank.pipeline.dbt import Dbt
from paperrank.pipeline.rank import build
from paperrank.publish.locks import check_writable

WRITES = {"build", "run", "seed", "snapshot"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    settings.add_arguments(parser)
    parser.add_argument("dbt_args", nargs=argparse.REMAINDER, help="the dbt command and its flags")


def run(args: argparse.Namespace) -> int:
    command = [a for a in args.dbt_args if a != "--"]
    if not command:
        raise PaperrankError("give a dbt command, e.g. python -m paperrank.pipeline dbt -- build")
    working = db_path()
    if command[0] not in WRITES and not working.exists():
        raise PaperrankError(f"no warehouse at {working} (PAPERRANK_DB): dbt {command[0]} only "
                                "reads it; load data and run `make rank` first")
    chosen = settings.from_args(args)
    settings.check(chosen, working if command[0] in ("build", "run") and working.exists() else None)
    check_writable(working)
    dbt = Dbt(chosen.dbt_vars(), target=dbt_target(chosen.engine), quiet=False)
    if command[0] == "build":
        build(dbt, chosen.engine)
    else:
        dbt.invoke(*command)
    return 0
