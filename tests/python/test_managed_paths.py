"""The project moves, replaces or deletes only what it wrote.

Before: an existing EXPORT_DIR (a user's folder, a plain file, `seeds/`, the checkout) was
moved into `<dir>.versions/..._legacy00` at once and deleted five exports later; an unrelated
DuckDB file named by PAPERRANK_PUBLISHED_DB was adopted the same way (and a rollback published
it); links under a symbolically linked parent dangled; export folders nested inside each
other; a stray `.duckdb.wal` in the versions folder was taken for a build; and rollback
followed build time instead of the publication history.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import subprocess
from pathlib import Path

import duckdb
import pytest
from conftest import SYNTHETIC_TAXONOMY
from project import REPO, Project, as_build, dbt_not_started, replicate_options, rows, venue_copy, warehouse_copy

from paperrank.publish import delivery, publication, versions

pytestmark = pytest.mark.e2e  # publishes and exports real builds

# the settings the library's small venue was ranked with (`small_built`): a publish of another
# setting would be refused for that, not for the path under test
SETTINGS = ("--taxonomy", SYNTHETIC_TAXONOMY, "--profile", "iclr2026", "--top-n", "5", *replicate_options())


@pytest.fixture(scope="module")
def built(small_built: Project, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """The library's small venue, built by dbt, published, exported and reported once
    (`small_built`), copied whole for this module: its refused publishes still run the audit
    (dbt's marts-agree tests write their failures into the working warehouse) and a test leaves
    stray files in the versions folder for a while. Every command runs in this process
    (`Project.cli`): what is tested is the refusal and the files, not the command line."""
    return venue_copy(small_built, tmp_path_factory.mktemp("managed"))


def published_at(project: Project, published: Path) -> Project:
    """`project`'s warehouse with PAPERRANK_PUBLISHED_DB set to `published`."""
    other = Project(project.db, project.scratch, project.root)
    other.published = published
    return other


def tree(path: Path) -> str:
    """Every name, mode and byte under `path` (or of the file), to prove nothing moved."""
    digest = hashlib.sha256()
    items = [path] if path.is_file() else sorted(path.rglob("*"))
    for item in items:
        digest.update(f"{item}:{item.stat().st_mode}".encode())
        if item.is_file():
            digest.update(item.read_bytes())
    return digest.hexdigest()


def export(project: Project, folder: Path) -> subprocess.CompletedProcess[str]:
    """`paperrank export --export-dir folder`, in this process; export never starts dbt."""
    with dbt_not_started(project):
        return project.cli("export", "--export-dir", str(folder), check=False)


def one_line_refusal(result, *words: str) -> str:
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("kind", ["user folder", "plain file", "seeds", "checkout"])
def test_an_existing_export_target_we_did_not_write_is_refused(built: Project, tmp_path: Path,
                                                               kind: str) -> None:
    if kind == "user folder":
        target = tmp_path / "thesis"
        target.mkdir()
        (target / "chapter1.tex").write_text("my work", encoding="utf-8")
    elif kind == "plain file":
        target = tmp_path / "notes.txt"
        target.write_text("notes", encoding="utf-8")
    else:
        target = REPO / "seeds" if kind == "seeds" else REPO
    before = tree(target) if kind != "checkout" else sorted(os.listdir(target))
    line = one_line_refusal(export(built, target), str(target), "EXPORT_DIR",
                            "nothing was moved")
    assert "paperrank did not write it" in line
    assert (tree(target) if kind != "checkout" else sorted(os.listdir(target))) == before
    assert not target.with_name(f"{target.name}.versions").exists()


def test_an_unrelated_duckdb_file_is_never_adopted(built: Project, tmp_path: Path) -> None:
    other = tmp_path / "analysis.duckdb"
    con = duckdb.connect(str(other))
    con.execute("create table notes as select 42 as answer")
    con.close()
    before = tree(other)
    elsewhere = published_at(built, other)
    one_line_refusal(elsewhere.cli("publish", *SETTINGS, check=False),
                     str(other), "PAPERRANK_PUBLISHED_DB", "paperrank did not write it")
    one_line_refusal(elsewhere.cli("rollback", check=False), str(other), "paperrank did not write it")
    # the working warehouse is not a publication either
    one_line_refusal(published_at(built, built.db).cli("publish", *SETTINGS, check=False),
                     "paperrank did not write it")
    assert tree(other) == before and not (tmp_path / "analysis.duckdb.versions").exists()


def test_links_open_under_a_symlinked_parent(built: Project, tmp_path: Path) -> None:
    deep = tmp_path / "mnt" / "disk" / "a" / "b"
    deep.mkdir(parents=True)
    (tmp_path / "warehouse").symlink_to(deep)
    published = tmp_path / "warehouse" / "published.duckdb"
    delivery.deliver(built.db, published=published)
    result = export(published_at(built, published), tmp_path / "warehouse" / "exports")
    assert result.returncode == 0, result.stderr
    for link in (published, tmp_path / "warehouse" / "exports"):
        assert link.exists(), f"{link} -> {os.readlink(link)} dangles"
    con = duckdb.connect(str(published), read_only=True)
    assert con.execute("select count(*) from marts.paper_rankings").fetchone()[0] > 0
    con.close()
    assert json.loads((tmp_path / "warehouse" / "exports" / "manifest.json").read_text())["files"]
    # the same tree moved elsewhere still opens (links are relative to the resolved parent)
    shutil.move(str(tmp_path / "mnt"), str(tmp_path / "moved"))
    assert (tmp_path / "moved" / "disk" / "a" / "b" / "published.duckdb").exists()


def test_export_folders_never_nest(built: Project, tmp_path: Path) -> None:
    outer = tmp_path / "exports"
    assert export(built, outer / "iclr2026").returncode == 0
    before = tree(outer)
    one_line_refusal(export(built, outer), "holds the managed", str(outer / "iclr2026"))
    assert tree(outer) == before
    other = tmp_path / "other"
    assert export(built, other).returncode == 0
    one_line_refusal(export(built, other / "inner"), "is inside", "versions")
    one_line_refusal(export(built, built.published), "already the published path")
    assert versions.current(outer / "iclr2026") is not None and (outer / "iclr2026").exists()


def test_rank_refuses_overlapping_paths_before_building(built: Project, tmp_path: Path) -> None:
    with dbt_not_started(built):  # nothing ran
        result = built.cli("rank", *SETTINGS, "--export-dir", str(tmp_path / "out"),
                           "--report-dir", str(tmp_path / "out" / "report"), check=False)
    one_line_refusal(result, "REPORT_DIR", "inside EXPORT_DIR")
    assert "[1/" not in result.stdout  # no step started


def test_rank_refuses_a_wrong_near_duplicate_setting_before_building(built: Project) -> None:
    with dbt_not_started(built):  # nothing ran
        result = built.cli("rank", *SETTINGS, "--near-duplicate", "2", check=False)
    one_line_refusal(result, "near-duplicate similarity must be a number above 0 and at most 1")
    assert "[1/" not in result.stdout


def test_stray_files_are_not_publications_and_publications_are_read_only(built: Project) -> None:
    published = built.published
    active = versions.current(published)
    assert active is not None
    assert stat.S_IMODE(active.stat().st_mode) == 0o444
    exports = versions.current(built.scratch / "exports")
    assert exports is not None and stat.S_IMODE(exports.stat().st_mode) == 0o555
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o444 for p in exports.iterdir())
    stray = active.with_name(active.name + ".wal")
    stray.write_bytes(b"\0" * 100)
    copy = active.with_name("notes.duckdb")
    copy.write_bytes(b"not a database")
    try:
        assert versions.listing(published) == [active] or stray not in versions.listing(published)
        result = built.cli("publications")
        assert stray.name not in result.stdout and "notes.duckdb" not in result.stdout
        assert stray.exists() and copy.exists()  # not ours to delete either
    finally:
        stray.unlink()
        copy.unlink()


def test_rollback_walks_the_publication_history(built: Project, tmp_path: Path) -> None:
    published = tmp_path / "p.duckdb"
    working = warehouse_copy(built, tmp_path / "working").db
    names = {}
    for label in "AB":
        names[label] = delivery.deliver(as_build(working, f"build-{label}"), published=published)[1].name
    assert publication.rollback(published)[1] == "build-A"
    names["C"] = delivery.deliver(as_build(working, "build-C"), published=published)[1].name
    was, now, version = publication.rollback(published)
    assert (was, now) == ("build-C", "build-A")  # never the withdrawn B
    assert version.name not in names.values()  # a new publication, composed of A's rows
    with pytest.raises(Exception, match="no earlier publication"):
        publication.rollback(published)


def test_an_upgrade_from_the_single_file_layout_keeps_every_build(built: Project,
                                                                  tmp_path: Path) -> None:
    published = tmp_path / "single.duckdb"
    shutil.copy(versions.current(built.published), published)  # the old layout: a plain file
    published.chmod(0o644)
    (legacy,) = rows(published, "select distinct build_id from marts.build_settings")[0]
    working = as_build(warehouse_copy(built, tmp_path / "working").db, "build-new")
    _, new = delivery.deliver(working, published=published)
    history = versions.history(published)
    assert len(history) == 2 and history[1] == new.name and "legacy00" in history[0]
    was, now, _ = publication.rollback(published)
    assert (was, now) == ("build-new", legacy)
