"""`python -m paperrank.cli.reference [--check]`: write docs/cli.md from the commands' help.

The reference is every command's `--help`, in the order of the tree, so it cannot say anything
the commands do not; `--check` (and tests/python/test_cli_reference.py) fails when the file is
stale, so a changed option is a changed reference in the same commit.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import click

from paperrank.cli import main

REFERENCE = Path(__file__).resolve().parents[2] / "docs" / "cli.md"
HEADER = ("# paperrank command reference\n\n"
          "Generated from `paperrank --help` by `python -m paperrank.cli.reference`; do not edit.\n"
          "`paperrank` is `.venv/bin/paperrank` (or `python -m paperrank`).\n")


def _walk(command: click.Command, ctx: click.Context) -> Iterator[tuple[str, str]]:
    yield ctx.command_path, command.get_help(ctx)
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            child = command.get_command(ctx, name)
            if child is not None:
                yield from _walk(child, click.Context(child, info_name=name, parent=ctx))


def render() -> str:
    """The whole reference as Markdown: one section per command, its help verbatim."""
    root = click.Context(main, info_name="paperrank", terminal_width=100, max_content_width=100)
    parts = [HEADER]
    for path, text in _walk(main, root):
        parts.append(f"\n## `{path}`\n\n```text\n{text}\n```\n")
    return "".join(parts)


def main_reference(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        current = REFERENCE.read_text(encoding="utf-8") if REFERENCE.exists() else ""
        if current != text:
            print(f"{REFERENCE} is stale: run python -m paperrank.cli.reference", file=sys.stderr)
            return 1
        return 0
    REFERENCE.write_text(text, encoding="utf-8")
    print(f"wrote {REFERENCE}")
    return 0


if __name__ == "__main__":
    sys.exit(main_reference(sys.argv[1:]))
