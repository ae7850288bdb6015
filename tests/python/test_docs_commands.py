"""Every command the docs show names something that exists: each `make <target>` a target of the
Makefile, each `paperrank <command> [<subcommand>]` a command of the CLI (a renamed or removed
command once left a page telling operators to run what no longer runs). Only code is read: inline
code spans and fenced blocks of README.md, bench/README.md and docs/*.md."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from project import REPO

from paperrank.cli import main

PAGES = sorted([REPO / "README.md", REPO / "bench" / "README.md", *(REPO / "docs").glob("*.md")])
FENCED = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
INLINE = re.compile(r"`([^`\n]+)`")
# a command starts a line of code, or follows a shell separator or prompt
START = r"(?:^|&&|\|\||;|\$ |\()\s*"
MAKE = re.compile(START + r"make\s+((?:[A-Z_]+=\S*\s+)*)([a-z][a-z0-9-]*)", re.MULTILINE)
CLI = re.compile(START + r"(?:\.venv/bin/)?paperrank\s+([a-z][a-z0-9-]*)(?:\s+([a-z][a-z0-9-]*))?",
                 re.MULTILINE)


def code_of(page: Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    blocks = FENCED.findall(text)
    prose = FENCED.sub("", text)
    return blocks + INLINE.findall(prose)


def make_targets() -> set[str]:
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([a-z][a-z0-9-]*):", makefile, re.MULTILINE))


def cli_commands() -> dict[str, set[str]]:
    """Each top-level command, with its subcommands (empty for a plain command)."""
    ctx = click.Context(main)
    found: dict[str, set[str]] = {}
    for name in main.list_commands(ctx):
        command = main.get_command(ctx, name)
        found[name] = set(command.list_commands(ctx)) if isinstance(command, click.Group) else set()
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(REPO)))
def test_the_commands_a_page_shows_exist(page: Path) -> None:
    targets, commands = make_targets(), cli_commands()
    wrong = []
    for code in code_of(page):
        for _settings, target in MAKE.findall(code):
            if target not in targets:
                wrong.append(f"make {target}: no such target")
        for command, sub in CLI.findall(code):
            if command not in commands:
                wrong.append(f"paperrank {command}: no such command")
            elif commands[command] and sub and sub not in commands[command]:
                wrong.append(f"paperrank {command} {sub}: no such subcommand")
    assert not wrong, wrong


def test_the_pages_show_commands() -> None:
    """The patterns find what they look for (a check that cannot pass on an empty match)."""
    shown = [m for page in PAGES for code in code_of(page) for m in MAKE.findall(code)]
    assert len({target for _s, target in shown}) >= 10
    readme = code_of(REPO / "README.md")
    assert any(CLI.search(code) for code in readme)
