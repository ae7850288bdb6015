"""Shared sub-command dispatch for `python -m paperrank.ingest` and `python -m paperrank.classify`.

Each command module exposes `add_arguments(parser)` and `run(args) -> int`; expected failures
(`PaperrankError`: bad input, a missing file, a locked warehouse) become one clear line on
stderr and exit code 2.  Any other exception is a bug and keeps its traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from paperrank.core.errors import PaperrankError
from paperrank.core.warehouse import LoadSummary


def dispatch(prog: str, description: str | None, commands: dict[str, tuple[str, str]],
             argv: list[str] | None = None) -> int:
    """Parse argv, import only the chosen command's module, and run it."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    sub = parser.add_subparsers(dest="command", required=True)
    chosen = (argv if argv is not None else sys.argv[1:])[:1]
    for name, (module_name, help_text) in commands.items():
        command = sub.add_parser(name, help=help_text)
        if [name] == chosen:
            module = importlib.import_module(module_name)
            command.description = module.__doc__
            command.formatter_class = argparse.RawDescriptionHelpFormatter
            module.add_arguments(command)
            command.set_defaults(handler=module.run)
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except PaperrankError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


def finish_load(summary: LoadSummary) -> int:
    """Print a loader's summary; a load that read records but loaded none of them fails.

    Every rejection is already kept in raw.rejected_records with its reason; the exit code
    makes sure a script running the load notices that nothing came of it.
    """
    print(summary.render())
    if summary.records_read == 0:
        print(f"error: {summary.source} holds no records (0 rows); nothing was loaded",
              file=sys.stderr)
        return 2
    if summary.papers_loaded + summary.reviews_loaded + summary.labels_loaded == 0:
        print(f"error: nothing loaded: all {summary.records_read} records of {summary.source} "
              "were rejected (reasons above and in raw.rejected_records)", file=sys.stderr)
        return 2
    return 0
