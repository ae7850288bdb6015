"""Many venues, one operator: the docs' commands run as written, in the order a reader meets them.

A new operator on a fresh clone follows README.md, then docs/: the demo, the ICLR 2026 example,
docs/outcomes.md's ICLR 2018 example, a rollback, `make docs`. Before, the ICLR 2018 example
failed because ICLR 2026's exports held the default folder, published over ICLR 2026's
warehouse, and each venue's report removed the last one's page. Here each command is the docs'
own words, run by `make` in a copy of the project with its own `warehouse/`, `exports/` and
`output/`; the shared data is replaced by small slices of the real files, and the reader's
environment asks for few uncertainty replicates (the point is the paths, not the size). Every
command exits 0; at the end both venues' CSVs, pages and published tables are there, and what a
later command must not touch is byte for byte what it was.

The README's first command, `make demo`, is also checked here as a new user meets it (once: it
was test_demo's own `make demo` too): a short report, not the logs; no terminal escape codes
off a terminal; the query it prints works exactly as printed, from where the user ran make.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from project import FEW_REPLICATES, REPO, SHARED, copy_project, require_shared

pytestmark = pytest.mark.e2e

ICLR2026 = SHARED / "data" / "iclr2026"
ICLR2018 = SHARED / "data" / "iclr2018" / "paperlists_iclr2018.json.gz"


def example(page: str, first: str) -> list[str]:
    """The fenced lines of `page`'s example that starts with the line holding `first`, up to its
    `make rank` (the `export` line before it included), as written."""
    text = (REPO / page).read_text(encoding="utf-8")
    for block in text.split("```sh\n")[1:]:
        lines = block.split("```")[0].strip().splitlines()
        if any(first in line for line in lines):
            return [line for line in lines if line and line != "make setup"]
    raise AssertionError(f"{page} has no example with {first!r}")


def small_shared(folder: Path) -> None:
    """Slices of the real files where the docs' commands look for them (../shared)."""
    papers = pd.read_parquet(ICLR2026 / "accepted_papers.parquet").head(150)
    labels = pd.read_parquet(ICLR2026 / "peer_llm_labels.parquet")
    target = folder / "data" / "iclr2026"
    target.mkdir(parents=True)
    papers.to_parquet(target / "accepted_papers.parquet")
    labels[labels.openreview_id.isin(papers.openreview_id)].to_parquet(target / "peer_llm_labels.parquet")
    with gzip.open(ICLR2018, "rt", encoding="utf-8") as handle:
        records = json.load(handle)
    (folder / "data" / "iclr2018").mkdir(parents=True)
    with gzip.open(folder / "data" / "iclr2018" / ICLR2018.name, "wt", encoding="utf-8") as handle:
        json.dump(records[:300], handle)


class Reader:
    """A shell that runs the docs' lines in the copy: `export` sets a variable for the lines
    after it; every other line runs as written and must exit 0."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.env = {name: value for name, value in os.environ.items()
                    if not name.startswith(("PAPERRANK_", "DBT_"))}
        self.env["DBT_PROFILES_DIR"] = str(root)
        self.env["DBT_EXCLUDE_RESOURCE_TYPES"] = "unit_test"  # test_dbt_unit_tests runs them

    def run(self, line: str) -> str:
        if line.startswith("export "):
            for word in shlex.split(line)[1:]:
                name, value = word.split("=", 1)
                self.env[name] = value
            return ""
        result = subprocess.run(line, shell=True, cwd=self.root, env=self.env, capture_output=True,
                                text=True, timeout=900)
        assert result.returncode == 0, f"{line}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
        return result.stdout + result.stderr


def digest(*paths: Path) -> dict[str, str]:
    """Every file under `paths` (links followed) and its sha256."""
    found = {}
    for path in paths:
        for file in sorted(p for p in path.rglob("*") if p.is_file()):
            found[str(file)] = hashlib.sha256(file.read_bytes()).hexdigest()
    return found


def venue_rows(published: Path, venue: str) -> str:
    """A hash of the venue's rows of every published mart."""
    con = duckdb.connect(str(published), read_only=True)
    try:
        hashed = hashlib.sha256()
        for (table,) in con.execute("select table_name from duckdb_tables() where schema_name = 'marts' "
                                    "order by 1").fetchall():
            rows = con.execute(f'select * exclude (build_id) from marts."{table}" where venue = ? order by all'
                               if table == "build_settings" else
                               f'select * from marts."{table}" where venue = ? order by all', [venue]).fetchall()
            hashed.update(f"{table}{rows!r}".encode())
        return hashed.hexdigest()
    finally:
        con.close()


def check_demo_summary(output: str, root: Path) -> None:
    """`make demo`'s summary, as a new user reads it (`root`: where make ran, with the demo's
    default folders)."""
    lines = output.splitlines()
    assert len(lines) <= 45, output  # it used to print about 520 lines
    assert "\x1b[" not in output
    assert "SYNTHETIC" in output
    for category in ("Agentic AI", "AI Systems", "Physical AI", "Healthcare & Life Sciences",
                     "Sustainable AI"):
        assert any(line.strip().startswith(category) for line in lines), category
    assert "moved out by the primary-area override" in output  # why labelled != ranked
    assert "primary_area_override" in output and "category_not_ranked" in output
    assert "published warehouse  warehouse/demo_published.duckdb " in output
    assert "CSVs                 output/demo/exports/ " in output
    assert (root / "warehouse/demo_published.duckdb").is_symlink()
    assert (root / "output/demo/exports/manifest.json").exists()
    assert sorted(p.name for p in (root / "output/demo/logs").iterdir()) == [
        "1_synthetic.log", "2_load.log", "3_classify.log", "4_rank.log", "5_label_agreement.log"]
    # the query command, exactly as printed, from where the user ran make
    query = lines[lines.index("Query the published warehouse:") + 1].strip()
    shown = subprocess.run(["bash", "-c", query], cwd=root, capture_output=True, text=True,
                           timeout=120, check=False)
    assert shown.returncode == 0, shown.stderr
    assert "category_rank" in shown.stdout and "Agentic AI" in shown.stdout


def test_the_docs_run_as_written_in_the_order_a_reader_meets_them(tmp_path: Path) -> None:
    require_shared(ICLR2026 / "accepted_papers.parquet")
    require_shared(ICLR2018)
    root = copy_project(tmp_path / "checkout")
    for name in ("Makefile", "pyproject.toml"):  # mtimes kept: make must not reinstall the venv
        shutil.copy2(REPO / name, root / name)
    (root / ".venv").symlink_to(REPO / ".venv")
    small_shared(tmp_path / "shared")
    reader = Reader(root)
    reader.env["DEMO_PAPERS"] = "200"
    # few uncertainty replicates in the reader's environment, as make reads any of its settings
    # from there (docs/settings.md: RANK_UNCERTAINTY_REPLICATES=, WEIGHT_DRAWS=): every
    # `make rank` line still runs as written, and the point is the paths, not the bootstrap
    reader.env.update({name.upper(): str(value) for name, value in FEW_REPLICATES.items()})

    # README: the demo
    demo = reader.run("make --no-print-directory demo")
    check_demo_summary(demo, root)
    assert "output/report/synth-2026" in demo and (root / "output/report/index.html").exists()
    demo_page = digest(root / "output/report/synth-2026")

    # README: ICLR 2026
    for line in example("README.md", "accepted_papers.parquet"):
        reader.run(line)
    published = root / "warehouse" / "published.duckdb"
    iclr2026 = digest(root / "exports/iclr-2026", root / "output/report/iclr-2026")
    iclr2026_rows = venue_rows(published, "ICLR 2026")
    assert any(name.endswith(".csv") for name in iclr2026)
    con = duckdb.connect(str(published), read_only=True)
    try:  # the reader's environment reached the build
        assert con.execute("select distinct rank_uncertainty_replicates, weight_draws from marts.build_settings "
                           "where venue = 'ICLR 2026'").fetchall() == [tuple(FEW_REPLICATES.values())]
    finally:
        con.close()

    # docs/outcomes.md: ICLR 2018, in the same published warehouse, folders of its own
    for line in example("docs/outcomes.md", "paperlists_iclr2018"):
        reader.run(line)
    assert digest(root / "exports/iclr-2026", root / "output/report/iclr-2026") == iclr2026
    assert venue_rows(published, "ICLR 2026") == iclr2026_rows
    iclr2018 = digest(root / "exports/iclr-2018", root / "output/report/iclr-2018")
    iclr2018_rows = venue_rows(published, "ICLR 2018")
    assert digest(root / "output/report/synth-2026") == demo_page
    index = (root / "output/report/index.html").read_text(encoding="utf-8")
    assert all(f'href="{slug}/{slug}.html"' in index for slug in ("synth-2026", "iclr-2026", "iclr-2018"))

    # ICLR 2026 again with other settings (the ranking alone), then its rollback to the build
    # of every extra: ICLR 2018 untouched throughout
    reader.run("export PAPERRANK_DB=warehouse/iclr2026.duckdb")
    reader.run("make rank TAXONOMY=iclr2026 TOP_N=10 EXTRAS=none")
    assert venue_rows(published, "ICLR 2026") != iclr2026_rows
    reader.run('make rollback VENUE="ICLR 2026"')
    assert venue_rows(published, "ICLR 2026") == iclr2026_rows
    assert venue_rows(published, "ICLR 2018") == iclr2018_rows
    assert digest(root / "exports/iclr-2018", root / "output/report/iclr-2018") == iclr2018
    csvs = {Path(name).name: sha for name, sha in digest(root / "exports/iclr-2026").items()
            if name.endswith(".csv")}
    assert csvs == {Path(name).name: sha for name, sha in iclr2026.items()
                    if "/exports/" in name and name.endswith(".csv")}

    # make docs, as the reader's shell has it (PAPERRANK_DB still exported)
    reader.run("make docs")
    assert (root / "target" / "static_index.html").exists()
    # in a new shell, with no PAPERRANK_DB: one line that names the warehouses there are
    reader.env.pop("PAPERRANK_DB")
    result = subprocess.run("make docs", shell=True, cwd=root, env=reader.env, capture_output=True,
                            text=True, timeout=900)
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert result.returncode != 0 and len(errors) == 1, result.stderr
    assert "warehouse/demo.duckdb" in errors[0] and "PAPERRANK_DB=" in errors[0]
