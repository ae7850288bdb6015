"""A click group that imports a sub-command's module only when that sub-command runs.

It is also where the error map lives: the one place that turns the project's expected
failures into a one-line message and an exit code (see `paperrank.core.errors`).
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from paperrank.core.errors import CheckFailed, PaperrankError, disk_error


class LazyGroup(click.Group):
    """A group whose sub-commands are `module:attribute` strings, imported on first use."""

    def __init__(self, *args: Any, lazy_subcommands: dict[str, tuple[str, str]] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_subcommands = lazy_subcommands or {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_subcommands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_subcommands:
            target, _help = self.lazy_subcommands[cmd_name]
            module_name, attribute = target.split(":")
            command = getattr(importlib.import_module(module_name), attribute)
            if not isinstance(command, click.Command):
                raise TypeError(f"{target} is not a click command")
            return command
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """List every sub-command with its one-line help, without importing any of them."""
        rows = [(name, self.lazy_subcommands[name][1]) for name in sorted(self.lazy_subcommands)]
        rows += [(name, command.get_short_help_str()) for name, command in sorted(self.commands.items())]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(sorted(rows))

    def invoke(self, ctx: click.Context) -> Any:
        """Run the sub-command; map expected failures to one line and their exit code."""
        try:
            return super().invoke(ctx)
        except (PaperrankError, CheckFailed) as error:
            if ctx.parent is not None:  # a nested group: let the top-level group report it once
                raise
            click.echo(f"error: {error}", err=True)
            sys.exit(error.exit_code)
        except OSError as error:  # a full or read-only disk is the operator's to fix, not a bug
            disk = disk_error(error)
            if disk is None or ctx.parent is not None:
                raise
            click.echo(f"error: {disk}", err=True)
            sys.exit(disk.exit_code)
