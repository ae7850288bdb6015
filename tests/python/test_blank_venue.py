"""A blank venue (empty or only whitespace) is refused in one line at every door that loads,
names or publishes a venue: ingest, rank, publish, export and rollback.

A blank name cannot be told apart from "no venue given" (`--venue ""`, an unset VENUE), so a
blank venue once published could never be named again to export or roll back. Each door is
tried on a copy of the small published venue; what is published (warehouse, versions, CSVs,
page) is byte for byte what it was after the refusal.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import duckdb
import pytest
from project import Project, venue_copy

BLANKS = ("", "   ", "\t")


def published_files(project: Project) -> dict[str, str]:
    """Every file of the copy except the working warehouse, by path: its digest."""
    return {str(path.relative_to(project.scratch)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(project.scratch.rglob("*"))
            if path.is_file() and not path.is_symlink() and not path.name.startswith(project.db.name)}


def refused(project: Project, *args: str) -> str:
    """The one line `paperrank <args>` is refused with (exit 2)."""
    result = project.cli(*args, check=False)
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: venue "), result.stderr
    return lines[0]


@pytest.mark.parametrize("command", ["rollback", "export"])
def test_a_blank_venue_option_is_refused_not_read_as_no_venue(small_built: Project, tmp_path: Path,
                                                               command: str) -> None:
    """`rollback --venue ""` is not `rollback` (the only venue published): it is refused."""
    project = venue_copy(small_built, tmp_path)
    before = published_files(project)
    for blank in BLANKS:
        line = refused(project, command, "--venue", blank)
        assert f"venue {blank!r} (--venue) is blank" in line
    assert published_files(project) == before


@pytest.mark.parametrize("blank", ["", "  "])
def test_rank_and_publish_refuse_a_build_of_a_blank_venue(small_built: Project, tmp_path: Path,
                                                           blank: str) -> None:
    """A working warehouse whose papers (rank) or build (publish) hold a blank venue, as one
    loaded before the loaders refused blank names would: refused before anything is published."""
    project = venue_copy(small_built, tmp_path)
    before = published_files(project)
    con = duckdb.connect(str(project.db))
    try:
        con.execute("update raw.papers set venue = ?", [blank])
        con.execute("update marts.build_settings set venue = ?", [blank])
    finally:
        con.close()
    assert "(raw.papers) is blank" in refused(project, "rank")
    assert "marts.build_settings) is blank" in refused(project, "publish")
    assert published_files(project) == before


@pytest.mark.parametrize("loader", [["file", "papers.json"], ["notes", "notes.jsonl"],
                                    ["openreview", "--venue-id", "ICLR.cc/2026/Conference"]])
def test_every_loader_refuses_a_blank_venue_before_reading_anything(tmp_path: Path,
                                                                     loader: list[str]) -> None:
    """The first door: no paper is ever stored under a blank venue (and no file is read, nor
    any host asked, before the refusal)."""
    project = Project(tmp_path / "warehouse.duckdb", tmp_path)
    for blank in BLANKS:
        line = refused(project, "ingest", *loader, "--venue", blank)
        assert f"venue {blank!r} (--venue) is blank" in line
    assert not project.db.exists()
