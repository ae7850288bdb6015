"""`paperrank`: the one command, built on click (which dbt already installs).

Sub-commands are imported only when they run (`LazyGroup`), so `paperrank --help` answers
without importing dbt, DuckDB or pandas. Every command's module exposes a click command or
group; `COMMANDS` maps each name to `module:attribute` and its one-line help.

The exit codes are decided here and nowhere else (`paperrank.cli.lazy`): expected bad input
(`PaperrankError`) is one line `error: ...` and exit 2; a failed check (`CheckFailed`) is one
line naming the check and exit 1; anything else keeps its traceback.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence
from typing import NoReturn

import click

from paperrank.cli.lazy import LazyGroup
from paperrank.core.exiting import exit_now

# name -> ("module:attribute", one-line help). The groups with sub-commands (ingest, classify,
# quality) are LazyGroups too, each in the module of its commands.
COMMANDS: dict[str, tuple[str, str]] = {
    "ingest": ("paperrank.cli.ingest:ingest", "bring a venue's papers and reviews into the raw layer"),
    "classify": ("paperrank.cli.classify:classify", "give every accepted paper one category of a taxonomy"),
    "build": ("paperrank.cli.build:build_command",
              "dbt build alone, in the working warehouse (publishes nothing)"),
    "rank": ("paperrank.cli.rank:command",
             "checks, dbt build, audit, publish, export: everything after loading"),
    "publish": ("paperrank.cli.publish:command", "audit the working warehouse's marts and publish them"),
    "publications": ("paperrank.cli.publications:command",
                     "list the kept publications and which one is published"),
    "rollback": ("paperrank.cli.rollback:command",
                 "point the published warehouse (and exports) at the previous build"),
    "export": ("paperrank.cli.export:command", "export the published build's CSVs"),
    "picks": ("paperrank.cli.picks:picks", "import the experts' picks downloaded from the report"),
    "report": ("paperrank.cli.report:command", "the experts' report: one HTML page per venue"),
    "validate": ("paperrank.cli.quality:validate", "run the great-expectations suites on the warehouse"),
    "quality": ("paperrank.cli.quality:quality", "check seeds, warehouse and dbt's failed tests"),
    "demo": ("paperrank.cli.demo:command", "the whole job offline on a synthetic venue, with a short summary"),
    "spark-raw": ("paperrank.cli.spark_raw:command",
                  "export the DuckDB raw layer to Parquet and register it as Spark tables"),
    "dbt": ("paperrank.cli.build:command",
            "run a dbt command with the make settings, colour only on a terminal"),
    "rank-sets": ("paperrank.cli.rank_sets:rank_sets", "rank confidence sets for a CSV of estimates"),
    "related": ("paperrank.cli.related:command",
                "related papers, sub-themes and the label audit of each venue (offline, cached)"),
}

# The commands whose process runs without the cycle collector. Each is one batch that ends when
# its steps are done, and what it builds lives until then: dbt's imported modules and parsed
# project, then each node's compiled SQL and results. The collector would walk those objects
# again and again to free little, mostly dbt's own reference cycles; reference counting frees
# everything else as before. docs/architecture.md, "Speed machinery", has the seconds saved and
# the memory kept.
WITHOUT_COLLECTOR = frozenset({"rank"})


@click.group(cls=LazyGroup, lazy_subcommands=COMMANDS,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100,
                               "terminal_width": 100})
def main() -> None:
    """Rank a conference's accepted papers within themes from their public reviews."""


def console() -> NoReturn:
    """The `paperrank` console script and `python -m paperrank`: `run`, ended by `exit_now`.

    Why not a plain exit: after a command that loaded dbt, pandas or great-expectations, the
    interpreter's teardown (its seconds: docs/architecture.md, "Speed machinery") comes after the
    last line was printed. An unexpected error still ends the usual way, with its traceback.
    A command of `WITHOUT_COLLECTOR` runs with the cycle collector off, since the process ends
    with it; `run`, which tests and benches call in a process that runs command after command,
    leaves the collector as it is."""
    argv = sys.argv[1:]
    if argv[:1] and argv[0] in WITHOUT_COLLECTOR:
        gc.disable()
    exit_now(run(argv))


def run(argv: Sequence[str]) -> int:
    """Run `paperrank <argv>` in this process and return its exit code (the console script's,
    and for tests and benches)."""
    try:
        main.main(args=list(argv), prog_name="paperrank")
    except SystemExit as done:
        code = done.code
        if isinstance(code, str):  # as the interpreter does with sys.exit("...")
            print(code, file=sys.stderr)
        return code if isinstance(code, int) else (0 if code is None else 1)
    return 0
