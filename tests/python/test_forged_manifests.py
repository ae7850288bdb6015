"""A folder or file that only looks like the project's is never adopted.

Before: a user's folder holding a `manifest.json` that named `thesis.txt`, used as EXPORT_DIR,
was adopted as an old export and `thesis.txt` was deleted six exports later; a folder of
pages carrying the report's generator tag was adopted as an old report; a user's DuckDB file
with a `marts.build_settings` table (and tables of their own) was adopted as an old
publication; a `<path>.versions/` folder the project did not make got its marker written in.
Now each is refused, in one line that says to move it away, before anything is moved, and
stays byte for byte as it was.  No dbt runs here: the refusals come first, and the
publications are of a tiny hand-made warehouse.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import duckdb
import pytest

from paperrank.cli import run as paperrank
from paperrank.publish import delivery, export_files, report_files, versions
from paperrank.publish.versions import NotOurs

THESIS = "Chapter 1. What I found.\n"
GENERATOR_PAGE = ('<!doctype html><meta name="generator" content="paperrank report">'
                  "<p>my notes on the shortlist</p>")


def tree(path: Path) -> str:
    """Every name, mode and byte under `path` (or of the file): proof that nothing moved."""
    digest = hashlib.sha256()
    for item in [path] if path.is_file() else sorted(path.rglob("*")):
        digest.update(f"{item}:{item.stat().st_mode}".encode())
        if item.is_file():
            digest.update(item.read_bytes())
    return digest.hexdigest()


def refused(capsys: pytest.CaptureFixture[str], argv: list[str], *words: str) -> str:
    """`paperrank argv` in this process: exit 2 and one line holding every word."""
    code = paperrank(argv)
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error: "), out + err
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def tiny_working(path: Path, build_id: str = "9e9f663f-0000-4000-8000-000000000001") -> Path:
    """A working warehouse with just what `publish` copies: a build's settings, its list of
    marts (the ranking alone) and rankings."""
    con = duckdb.connect(str(path))
    con.execute("create schema marts")
    con.execute("create table marts.build_settings as select ? as build_id, 'X 2026' as venue, "
                "'' as extras", [build_id])
    con.execute("create table marts.build_marts as select 'X 2026' as venue, ? as build_id, "
                "'ranking' as part, mart "
                "from (values ('build_settings'), ('build_marts'), ('paper_rankings')) as m(mart)",
                [build_id])
    con.execute("create table marts.paper_rankings as select 'p1' as paper_id, 1 as category_rank")
    con.close()
    return path


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A tiny working warehouse, published once to `published.duckdb` (the settings point at
    both), in a folder of its own."""
    working = tiny_working(tmp_path / "working.duckdb")
    monkeypatch.setenv("PAPERRANK_DB", str(working))
    monkeypatch.setenv("PAPERRANK_PUBLISHED_DB", str(tmp_path / "published.duckdb"))
    delivery.deliver(working, published=tmp_path / "published.duckdb")
    return tmp_path


def forged_export(folder: Path) -> dict:
    """A user's folder with a manifest as the project writes one: the files with their sizes
    and sha256, a build's settings, the export time.  It is still not the project's."""
    folder.mkdir()
    data = THESIS.encode()
    (folder / "thesis.txt").write_bytes(data)
    manifest = {"build_settings": {"build_id": "9e9f663f-0000-4000-8000-000000000001"},
                "exported_at": "2026-11-30T10:00:00+00:00",
                "files": [{"file": "thesis.txt", "rows": 1, "bytes": len(data),
                           "sha256": hashlib.sha256(data).hexdigest()}]}
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return manifest


def test_a_folder_with_a_forged_manifest_is_never_an_export_target(env, capsys) -> None:
    folder = env / "thesis"
    forged_export(folder)
    before = tree(folder)
    for _ in range(6):
        line = refused(capsys, ["export", "--export-dir", str(folder)], str(folder),
                       "EXPORT_DIR", "paperrank did not write it", "nothing was moved",
                       "move it away")
    assert "adopts no existing folder" in line
    refused(capsys, ["rollback", "--export-dir", str(folder), "--report-dir",
                     str(env / "report")], "EXPORT_DIR", "nothing was moved")
    assert tree(folder) == before and (folder / "thesis.txt").read_text() == THESIS
    assert not (env / "thesis.versions").exists()


def test_six_exports_into_a_forged_folder_leave_the_thesis(env) -> None:
    """The exact break: six exports, each writing its CSVs through the export's own swap
    (`versions.write_versions`), into the folder with the forged manifest."""
    folder = env / "thesis"
    manifest = forged_export(folder)
    before = tree(folder)
    refusals, written = 0, []
    export = {"build_settings": manifest["build_settings"],
              "files": [{"file": "agentic-ai.csv", "rows": 1}]}

    def write(staged: Path) -> str:
        written.append((staged / "agentic-ai.csv").write_text("paper_id\np1\n", encoding="utf-8"))
        return export_files.complete(staged, export, False)

    for _ in range(6):
        try:
            versions.write_versions(versions.NewVersion(folder, "exports", "EXPORT_DIR", write,
                                                        "the CSVs", "the previous CSVs are unchanged"))
        except NotOurs:
            refusals += 1
    assert (folder / "thesis.txt").is_file(), "the user's thesis was deleted"
    assert refusals == 6 and not written and tree(folder) == before
    assert not (env / "thesis.versions").exists()


def test_a_folder_of_pages_with_the_report_tag_is_never_the_report(env, capsys) -> None:
    folder = env / "shortlist"
    folder.mkdir()
    (folder / "notes.html").write_text(GENERATOR_PAGE, encoding="utf-8")
    before = tree(folder)
    refused(capsys, ["report", "--db", str(env / "published.duckdb"), "--out-dir", str(folder)],
            str(folder), "REPORT_DIR", "nothing was moved", "move it away")
    refused(capsys, ["rollback", "--export-dir", str(env / "exports"), "--report-dir",
                     str(folder)], "REPORT_DIR", "nothing was moved")
    with pytest.raises(NotOurs):
        report_files.claim(folder)
    assert tree(folder) == before and not (env / "shortlist.versions").exists()


@pytest.mark.parametrize("extra", ["a table of my own", "my table in marts", "a view",
                                   "settings only"])
def test_a_duckdb_file_that_only_looks_published_is_never_adopted(env, capsys, monkeypatch,
                                                                  extra) -> None:
    """A copy of a publication that the user added to (or cut down) is theirs now."""
    analysis = env / "analysis.duckdb"
    shutil.copy(versions.current(env / "published.duckdb"), analysis)
    analysis.chmod(0o644)
    con = duckdb.connect(str(analysis))
    con.execute({"a table of my own": "create table main.my_notes as select 'keep me' as note",
                 "my table in marts": "create table marts.my_shortlist as select 'p1' as id",
                 "a view": "create view marts.top as select * from marts.paper_rankings",
                 "settings only": "drop table marts.paper_rankings"}[extra])
    con.close()
    before = tree(analysis)
    for _ in range(6):
        with pytest.raises(NotOurs, match="paperrank did not write it"):
            delivery.deliver(env / "working.duckdb", published=analysis)
    monkeypatch.setenv("PAPERRANK_PUBLISHED_DB", str(analysis))
    refused(capsys, ["rollback", "--no-export"], str(analysis))
    assert tree(analysis) == before and not (env / "analysis.duckdb.versions").exists()


def test_a_real_single_file_publication_is_still_adopted(env) -> None:
    """The upgrade path stays: a plain copy of a publication becomes the first version."""
    single = env / "single.duckdb"
    shutil.copy(versions.current(env / "published.duckdb"), single)
    single.chmod(0o644)
    _, new = delivery.deliver(env / "working.duckdb", published=single)
    history = versions.history(single)
    assert len(history) == 2 and "legacy00" in history[0] and history[1] == new.name


def test_a_versions_folder_the_project_did_not_make_is_refused(env) -> None:
    """`<path>.versions/` without the marker (or with another path's) is not the project's,
    even when it holds names that look like versions: no marker is written into it."""
    folder = env / "exports.versions"
    (folder / "20260101T000000000000Z_abc").mkdir(parents=True)
    (folder / "20260101T000000000000Z_abc" / "manifest.json").write_text("{}", encoding="utf-8")
    (folder / "20260101T000000000000Z_abc" / "thesis.txt").write_text(THESIS, encoding="utf-8")
    before = tree(folder)
    with pytest.raises(NotOurs, match="paperrank did not make it"):
        export_files.claim(env / "exports")
    assert tree(folder) == before and not (folder / versions.MARKER).exists()
    other = env / "other.versions"
    shutil.copytree(folder, other)
    (other / versions.MARKER).write_text(json.dumps({"kind": "exports", "link": "exports"}),
                                         encoding="utf-8")
    with pytest.raises(NotOurs, match="belongs to 'exports'"):
        export_files.claim(env / "other")
    # a link into it, as before the marker existed, is the project's only when it points at
    # a complete version (a folder with its manifest), which the user's folder is not
    (folder / "20260101T000000000000Z_abc" / "manifest.json").unlink()
    (env / "exports").symlink_to("exports.versions/20260101T000000000000Z_abc")
    with pytest.raises(NotOurs, match="paperrank did not make"):
        export_files.claim(env / "exports")
    assert not (folder / versions.MARKER).exists()


def test_a_plain_file_where_the_link_was_is_not_adopted(env) -> None:
    """Once versions exist, a plain file at the link's place is not the older layout (even a
    copy of a publication): it is someone's, and stays."""
    published = env / "published.duckdb"
    copy = versions.current(published)
    published.unlink()
    shutil.copy(copy, published)
    published.chmod(0o644)
    before, kept = tree(published), versions.listing(published)
    with pytest.raises(NotOurs, match="nothing was moved"):
        delivery.deliver(env / "working.duckdb", published=published)
    assert tree(published) == before and versions.listing(published) == kept
