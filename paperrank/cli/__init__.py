"""`paperrank`: the one command, built on click (which dbt already installs).

Sub-commands are imported only when they run (`LazyGroup`), so `paperrank --help` answers
without importing dbt, DuckDB or pandas. Every command's module exposes a click command or
group; `COMMANDS` maps each name to `module:attribute` and its one-line help.

The exit codes are decided here and nowhere else: expected bad input (`PaperrankError`) is one
line `error: ...` and exit 2; a failed check (`CheckFailed`) is one line naming the check and
exit 1; anything else keeps its traceback.
"""

from __future__ import annotations

import click

from paperrank.cli.lazy import LazyGroup

# name -> ("module:attribute", one-line help). Groups of their own (ingest, classify, picks) are
# LazyGroups too, in their modules.
COMMANDS: dict[str, tuple[str, str]] = {
    "picks": ("paperrank.picks.cli:picks", "import the experts' picks downloaded from the report"),
}


@click.group(cls=LazyGroup, lazy_subcommands=COMMANDS,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
def main() -> None:
    """Rank a conference's accepted papers within themes from their public reviews."""
