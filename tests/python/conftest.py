"""The suite's shared warehouses: each data shape is loaded once and built once per session.

Loading the real ICLR 2026 data and building it (1,000 bootstrap replicates) costs minutes, and
so does dbt's start-up in every small build. Each warehouse below is built once per session by
the first pytest worker that asks for it (`library.built`: file-locked, so the workers of
`make test` share it) and read by every test that needs it:

- `iclr_loaded`: the real ICLR 2026 accepted papers and their LLM labels, not yet built;
- `iclr_built`: that warehouse after `make rank TAXONOMY=iclr2026` (checks, dbt build with the
  project's defaults, so the rank-uncertainty tests see B = 1000; audit, publish, CSV export,
  report);
- `synthetic_loaded`: one synthetic venue (SYNTH 2026) and its true themes as labels of the
  model "truth", not yet built;
- `synthetic_built`: that venue after `paperrank rank` with few replicates (built, audited,
  published, exported, its report drawn), in-process;
- `small_loaded`: a small venue for the path, settings and publication tests (SYNTH 2026 again,
  80 papers: 28 ranked in all five ranked categories of icml2026, the primary-area override
  used), labels of model "truth", not built;
- `small_built`: that venue after `paperrank rank --top-n 5` with few replicates, in-process:
  published (scratch/published.duckdb), exported (scratch/exports), its report
  (scratch/report); what rank printed is in scratch/rank.out;
- `hostile_built`: the experts' page venue (tests/python/hostile_venue.py): HOSTILE 2026, hostile
  text wherever an expert reads, and the plain SECOND 2026, two label sets, seeds and models
  built with few replicates, in-process (test_report, test_report_workbench).

A module whose tests share a build of their own (another shape, or a library venue taken
further) makes it a library entry too (`library.built` in the module), so that pytest workers
running its tests build it once.

These files are shared: a test may read them (read-only connections, or `Project.in_scratch`
for a scratch folder of its own) but never writes them. A test that writes takes its own copy
(`warehouse_copy`, into its tmp_path; `venue_copy` for the whole folder, publications, exports
and report included). dbt's unit tests run once, in test_dbt_unit_tests.py;
every other build excludes them (`Project`).
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from pathlib import Path

import hostile_venue
import library
import pytest
from docs_pages import readme_iclr_example
from project import ICLR, REPO, Project, replicate_options, require_shared, warehouse_copy

from bench.suite_times import recorded

# A test worker runs a module's pipelines in-process for minutes and holds dbt's parsed projects,
# pandas and great-expectations all along: at Python's default pace (a collection every 700 new
# objects) the cycle collector walks those live objects again and again. A collection every
# 200,000 new objects, the older generations rarely (mypy's setting), took test_settings.py from
# 36.8 s to 34.9 s (docs/tests.md, "The test workers' collector").
gc.set_threshold(200_000, 30, 30)

# A pytest-xdist worker (make test runs on both cores) has a __main__ without a file; pyspark,
# installed with the Spark extra and imported by great-expectations, takes that for a doctest run
# and exits the worker with status 0. It gets a real file that does nothing (xdist_main.py): the
# quality gates' worker is spawned, and spawn runs the parent's __main__ file in the child (a
# made-up name there killed the child before it read a request: the hang of two workers).
if getattr(sys.modules["__main__"], "__spec__", None) is None and not hasattr(sys.modules["__main__"], "__file__"):
    sys.modules["__main__"].__file__ = str(Path(__file__).with_name("xdist_main.py"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest modules first, by their seconds in docs/tests.md's table of the last full run.

    `make test` hands each module whole to the next free worker (--dist loadfile, in collection
    order: --no-loadscope-reorder), so a long module collected late (the Spark module is one of
    the last alphabetically) kept one worker busy for minutes after the other had finished.
    Longest first is the classic rule for that (a module the table does not know yet goes
    last); the order inside a module is kept, and every worker collects the same order."""
    seconds = recorded(REPO / "docs" / "tests.md")
    items.sort(key=lambda item: -seconds.get(item.path.name, 0.0))


@pytest.fixture(autouse=True, scope="module")
def _browser_closed_after_its_module() -> Iterator[None]:
    """Close the Chromium a module's page tests started (tests/python/browser.py) when the module
    ends. While Playwright's sync API runs, an asyncio loop stays running in the thread, and every
    later module on the same worker that calls asyncio.run() (the classifier's client, the
    outcome loaders) failed with "cannot be called from a running event loop"."""
    yield
    browser = sys.modules.get("browser")
    if browser is not None:
        browser._close()


SYNTHETIC_VENUE = "SYNTH 2026"
SYNTHETIC_PAPERS = 600
SYNTHETIC_TAXONOMY = "icml2026"


@pytest.fixture(scope="session")
def iclr_loaded(tmp_path_factory: pytest.TempPathFactory) -> Project:
    """The real ICLR 2026 data in the raw layer: 5,358 accepted papers, their reviews and the
    peer LLM labels (taxonomy iclr2026), loaded by the README's own two commands."""
    require_shared(ICLR / "accepted_papers.parquet")
    require_shared(ICLR / "peer_llm_labels.parquet")

    def load(folder: Path) -> None:
        project = Project(folder / "warehouse.duckdb", folder)
        ingest, labels, _rank = readme_iclr_example()  # the README's commands, word for word
        project.run(*ingest)
        project.run(*labels)

    folder = library.built(tmp_path_factory, "iclr2026_loaded", load)
    return Project(folder / "warehouse.duckdb", folder)


@pytest.fixture(scope="session")
def iclr_built(iclr_loaded: Project, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """The README's `make rank TAXONOMY=iclr2026 ...`, on a copy of the loaded data: checks, dbt build
    (the project's defaults: bootstrap, B = 1000, seed 2026), audit, publish, export (to
    scratch/exports/iclr2026) and the experts' report (scratch/report)."""

    def build(folder: Path) -> None:
        project = warehouse_copy(iclr_loaded, folder)
        *_loaders, rank = readme_iclr_example()
        # the README's `make rank ...` as written; the later settings keep its outputs in scratch
        # B = 1000 on 1,657 papers: minutes, and more than 10 of them on a busy 2-core machine
        # while the other worker builds too (the default 600 s timed out there)
        project.run(*rank, f"EXPORT_DIR={project.scratch / 'exports' / 'iclr2026'}",
                    f"REPORT_DIR={project.scratch / 'report'}", "--no-print-directory", timeout=1800)

    folder = library.built(tmp_path_factory, "iclr2026_built", build)
    return Project(folder / "warehouse.duckdb", folder)


@pytest.fixture(scope="session")
def synthetic_loaded(tmp_path_factory: pytest.TempPathFactory) -> Project:
    """A synthetic ICML-like venue (seed 2026) loaded with the ICLR review form, and the
    generator's true themes imported as labels of model "truth" (taxonomy icml2026)."""

    def load(folder: Path) -> None:
        project = Project(folder / "warehouse.duckdb", folder)
        venue, truth = folder / "venue.parquet", folder / "truth.parquet"
        project.cli("ingest", "synthetic", "--papers", str(SYNTHETIC_PAPERS), "--venue", SYNTHETIC_VENUE,
                    "--out", str(venue), "--labels-out", str(truth))
        project.cli("ingest", "file", str(venue), "--venue", SYNTHETIC_VENUE, "--profile", "iclr2026")
        project.cli("classify", "import", str(truth), "--taxonomy", SYNTHETIC_TAXONOMY, "--model", "truth")

    folder = library.built(tmp_path_factory, "synthetic_loaded", load)
    return Project(folder / "warehouse.duckdb", folder)


@pytest.fixture(scope="session")
def synthetic_built(synthetic_loaded: Project, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """The synthetic venue after `paperrank rank` (seeds, models, data tests, audit, publish to
    scratch/published.duckdb, CSVs in scratch/exports, report in scratch/report) with few
    replicates: its readers check the ranking and the marts' shape, not the uncertainty."""

    def build(folder: Path) -> None:
        project = warehouse_copy(synthetic_loaded, folder)
        project.cli("rank", "--taxonomy", SYNTHETIC_TAXONOMY, "--profile", "iclr2026",
                    *replicate_options(), "--export-dir", str(folder / "exports"),
                    "--report-dir", str(folder / "report"))

    folder = library.built(tmp_path_factory, "synthetic_built", build)
    return Project(folder / "warehouse.duckdb", folder)


SMALL_PAPERS = 80


def load_synthetic(project: Project, papers: int, venue: str = SYNTHETIC_VENUE,
                   seed: int | None = None) -> None:
    """Generate a synthetic venue (files in the project's scratch folder), load it with the ICLR
    review form and import its true themes as labels of model "truth" (taxonomy icml2026)."""
    name = venue.replace(" ", "_")
    out, truth = project.scratch / f"{name}.parquet", project.scratch / f"{name}_truth.parquet"
    project.cli("ingest", "synthetic", "--papers", str(papers), "--venue", venue, "--out", str(out),
                "--labels-out", str(truth), *(["--seed", str(seed)] if seed is not None else []))
    project.cli("ingest", "file", str(out), "--venue", venue, "--profile", "iclr2026")
    project.cli("classify", "import", str(truth), "--taxonomy", SYNTHETIC_TAXONOMY, "--model", "truth")


@pytest.fixture(scope="session")
def small_loaded(tmp_path_factory: pytest.TempPathFactory) -> Project:
    """The small synthetic venue (SYNTH 2026, 80 papers, seed 2026) and its true themes as
    labels of model "truth": for tests of paths, settings and publications, whose builds cost
    dbt's work per model, not per paper."""

    def load(folder: Path) -> None:
        load_synthetic(Project(folder / "warehouse.duckdb", folder), SMALL_PAPERS)

    folder = library.built(tmp_path_factory, "small_loaded", load)
    return Project(folder / "warehouse.duckdb", folder)


@pytest.fixture(scope="session")
def small_built(small_loaded: Project, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """The small venue after `paperrank rank --top-n 5` with few replicates, in-process: built,
    audited, published (scratch/published.duckdb), exported (scratch/exports), its report drawn
    (scratch/report); what rank printed in scratch/rank.out. Tests that write take
    `venue_copy(small_built, tmp_path)`."""

    def build(folder: Path) -> None:
        project = warehouse_copy(small_loaded, folder)
        ranked = project.cli("rank", "--taxonomy", SYNTHETIC_TAXONOMY, "--profile", "iclr2026",
                             "--top-n", "5", *replicate_options(), "--export-dir", str(folder / "exports"),
                             "--report-dir", str(folder / "report"))
        (folder / "rank.out").write_text(ranked.stdout, encoding="utf-8")

    folder = library.built(tmp_path_factory, "small_built", build)
    return Project(folder / "warehouse.duckdb", folder)


@pytest.fixture(scope="session")
def hostile_built(tmp_path_factory: pytest.TempPathFactory) -> Project:
    """The hostile venue and the plain second one in one warehouse, seeds and models built
    (hostile_venue.build); the papers files beside it (hostile-2026.parquet), and the ids of
    the shortlist's hostile papers (`hostile_venue.shortlisted`)."""
    folder = library.built(tmp_path_factory, "hostile_built", hostile_venue.build)
    return Project(folder / "warehouse.duckdb", folder)
