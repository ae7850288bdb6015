"""docs/cli.md is the commands' own help: regenerate it (python -m paperrank.cli.reference)
whenever a command or option changes, or this fails."""

from __future__ import annotations

from paperrank.cli.reference import REFERENCE, render


def test_cli_reference_is_current() -> None:
    assert REFERENCE.read_text(encoding="utf-8") == render(), (
        "docs/cli.md is stale: run .venv/bin/python -m paperrank.cli.reference")


def test_reference_lists_the_command_tree() -> None:
    text = render()
    for path in ("paperrank ingest file", "paperrank ingest notes", "paperrank ingest openreview",
                 "paperrank ingest synthetic", "paperrank classify run", "paperrank classify import",
                 "paperrank classify eval", "paperrank classify check", "paperrank build",
                 "paperrank rank", "paperrank publish", "paperrank publications",
                 "paperrank rollback", "paperrank export", "paperrank report",
                 "paperrank validate", "paperrank demo"):
        assert f"## `{path}`" in text, path
