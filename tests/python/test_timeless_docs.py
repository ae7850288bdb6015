"""Docs, code and comments say what is and why; history, with its commits, is CHANGELOG.md's.

A commit hash in a doc or a docstring ties the text to one moment of the repository: it goes
stale at the next change and sends the reader into history to understand the present. This test
reads every tracked text file but CHANGELOG.md and fails on any word that abbreviates (7 to 40
hexadecimal digits) a commit of this repository's history, naming the file, the line and the
commit.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from project import REPO

HEX_WORD = re.compile(r"\b[0-9a-f]{7,40}\b")
HISTORY = "CHANGELOG.md"
BINARY = (".png", ".parquet", ".duckdb", ".gz", ".zip", ".pdf")


def git(*args: str) -> list[str]:
    return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True,
                          check=True).stdout.split()


def commit_words(text: str, commits: set[str]) -> list[str]:
    """The words of `text` that abbreviate one of `commits` (full 40-digit hashes)."""
    prefixes = {commit[:7] for commit in commits}
    return [word for word in HEX_WORD.findall(text)
            if word[:7] in prefixes and any(commit.startswith(word) for commit in commits)]


def hashes_outside_history(repo: Path, commits: set[str]) -> list[str]:
    """`file:line: word` for every commit hash in a tracked text file but the changelog."""
    found = []
    for name in git("ls-files"):
        if name == HISTORY or name.endswith(BINARY):
            continue
        try:
            text = (repo / name).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            found += [f"{name}:{number}: {word}" for word in commit_words(line, commits)]
    return found


def test_no_commit_hash_outside_the_changelog() -> None:
    commits = set(git("rev-list", "--all"))
    if len(commits) < 2:
        pytest.skip("a shallow clone: no history to recognise commit hashes by")
    found = hashes_outside_history(REPO, commits)
    assert not found, ("commit hashes belong in CHANGELOG.md; say what is and why instead:\n"
                       + "\n".join(found))


def test_a_commit_hash_in_a_doc_is_found() -> None:
    """The check recognises an abbreviated and a full hash, and not a hex word of a commit
    that does not exist (an md5 sum, a constant)."""
    commits = set(git("rev-list", "--all"))
    head = git("rev-parse", "HEAD")[0]
    line = f"measured at {head[:7]} and {head}; md5 0123456789abcdef0123456789abcdef"
    words = commit_words(line, commits | {head})
    assert words == [head[:7], head]
    assert commit_words("md5 0123456789abcdef0123456789abcdef", {"f" * 40}) == []
