"""Shared sub-command dispatch for `python -m ingest` and `python -m classify`.

Each command module exposes `add_arguments(parser)` and `run(args) -> int`; expected failures
(bad input, missing files) become one clear line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys


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
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
