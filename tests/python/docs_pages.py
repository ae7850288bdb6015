"""The commands the docs show, read from their code: inline code spans and fenced blocks of
README.md, bench/README.md and docs/*.md. test_docs_commands checks that each runs as written;
the ICLR 2026 session fixtures run the README's real-venue example from here, word for word."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from project import REPO

PAGES = sorted([REPO / "README.md", REPO / "bench" / "README.md", *(REPO / "docs").glob("*.md")])
FENCED = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
INLINE = re.compile(r"`([^`\n]+)`")
# a command starts a line of code, or follows a shell separator or prompt
START = r"(?:^|&&|\|\||;|\$ |\()\s*"
COMMAND = re.compile(START + r"((?:make|(?:\.venv/bin/)?paperrank)\s.*?)\s*(?:#.*)?$", re.MULTILINE)
# a word that stands for something the reader fills in
PLACEHOLDER = re.compile(r"^(?:[A-Z][A-Z_]*|.*\|.*|.*\.\.\.|\[.*|.*\]|<.*>)$")
MAKE_VAR = re.compile(r"^([A-Z_]+)=(.*)$", re.DOTALL)


@dataclass(frozen=True)
class Shown:
    """One command line a page shows: fenced lines are commands to type, inline ones mentions."""

    page: str
    line: str
    fenced: bool

    def words(self) -> list[str]:
        # the first command of a `a && b` line; docs chain only to show order
        text = re.split(r"\s(?:&&|\|\||;)\s", self.line)[0]
        try:
            return shlex.split(text)
        except ValueError:
            return text.split()

    def make_words(self) -> list[str]:
        """`make` and its settings and targets, up to the prose a layout block may run on into."""
        kept = []
        for word in self.words()[1:]:
            bare = word.rstrip("),;")
            if not (MAKE_VAR.match(bare) or re.fullmatch(r"[a-z][a-z0-9-]*", bare)):
                break
            kept.append(bare)
            if bare != word:
                break
        return kept

    def is_synopsis(self) -> bool:
        return not self.fenced or any(PLACEHOLDER.match(word) for word in self.words()[1:])


def code_of(page: Path) -> list[tuple[str, bool]]:
    text = page.read_text(encoding="utf-8")
    blocks = [(block, True) for block in FENCED.findall(text)]
    prose = FENCED.sub("", text)
    return blocks + [(span, False) for span in INLINE.findall(prose)]


def shown_commands() -> list[Shown]:
    found = []
    for page in PAGES:
        if page.name == "cli.md":  # generated from --help; test_cli_reference keeps it current
            continue
        for code, fenced in code_of(page):
            for line in COMMAND.findall(code.replace("\\\n", " ")):
                found.append(Shown(str(page.relative_to(REPO)), line, fenced))
    return found


SHOWN = shown_commands()


def readme_iclr_example() -> list[list[str]]:
    """The README's ICLR 2026 example, each command as its words: the loaders, then `make rank`.
    (`make setup` is the suite's own set-up; the `export` line's warehouse paths are the fixture's.)"""
    lines = [shown for shown in SHOWN if shown.page == "README.md" and shown.fenced]
    start = next(i for i, shown in enumerate(lines) if "accepted_papers.parquet" in shown.line)
    example = [lines[start], lines[start + 1], lines[start + 2]]
    assert [shown.words()[:2] for shown in example] == [
        [".venv/bin/paperrank", "ingest"], [".venv/bin/paperrank", "classify"], ["make", "rank"]], example
    return [shown.words() for shown in example]
