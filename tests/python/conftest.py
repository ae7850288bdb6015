"""The suite's shared warehouses: each data shape is loaded once and built once per session.

Loading the real ICLR 2026 data and building it (1,000 bootstrap replicates) costs minutes, and
so does dbt's start-up in every small build; before, three modules built the same ICLR data and
eight fixtures loaded the same synthetic venue. Now:

- `iclr_loaded`: the real ICLR 2026 accepted papers and their LLM labels, not yet built;
- `iclr_built`: that warehouse after `make rank TAXONOMY=iclr2026` (checks, dbt build with the
  project's defaults, so the rank-uncertainty tests see B = 1000; audit, publish, CSV export);
- `synthetic_loaded`: one synthetic venue (SYNTH 2026) and its true themes as labels of the
  model "truth", not yet built;
- `synthetic_built`: that warehouse after `dbt build` with few replicates.

These files are shared: a test may read them (read-only connections, or `Project.readonly_view`
for a scratch folder of its own) but never writes them. A test that writes takes its own copy
(`warehouse_copy`, into its tmp_path). dbt's unit tests run once, in test_dbt_unit_tests.py;
every other build excludes them (`Project`).
"""

from __future__ import annotations

import pytest
from project import ICLR, Project, few_replicates, require_shared, warehouse_copy

SYNTHETIC_VENUE = "SYNTH 2026"
SYNTHETIC_PAPERS = 600
SYNTHETIC_TAXONOMY = "icml2026"


@pytest.fixture(scope="session")
def iclr_loaded(tmp_path_factory: pytest.TempPathFactory) -> Project:
    """The real ICLR 2026 data in the raw layer: 5,358 accepted papers, their reviews and the
    peer LLM labels (taxonomy iclr2026), as `make run` would load them."""
    papers = require_shared(ICLR / "accepted_papers.parquet")
    labels = require_shared(ICLR / "peer_llm_labels.parquet")
    scratch = tmp_path_factory.mktemp("iclr2026_loaded")
    project = Project(scratch / "warehouse.duckdb", scratch)
    project.paperrank("ingest", "file", str(papers), "--venue", "ICLR 2026")
    project.paperrank("classify", "import", str(labels), "--taxonomy", "iclr2026")
    return project


@pytest.fixture(scope="session")
def iclr_built(iclr_loaded: Project, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """What `make rank TAXONOMY=iclr2026` runs, on a copy of the loaded data: checks, dbt build
    (the project's defaults: bootstrap, B = 1000, seed 2026), audit, publish, export (to
    scratch/exports/iclr2026) and the experts' report (scratch/report)."""
    project = warehouse_copy(iclr_loaded, tmp_path_factory.mktemp("iclr2026"))
    project.paperrank("rank", "--taxonomy", "iclr2026",
                   "--export-dir", str(project.scratch / "exports" / "iclr2026"),
                   "--report-dir", str(project.scratch / "report"))
    return project


@pytest.fixture(scope="session")
def synthetic_loaded(tmp_path_factory: pytest.TempPathFactory) -> Project:
    """A synthetic ICML-like venue (seed 2026) loaded with the ICLR review form, and the
    generator's true themes imported as labels of model "truth" (taxonomy icml2026)."""
    scratch = tmp_path_factory.mktemp("synthetic_loaded")
    project = Project(scratch / "warehouse.duckdb", scratch)
    venue, truth = scratch / "venue.parquet", scratch / "truth.parquet"
    project.paperrank("ingest", "synthetic", "--papers", str(SYNTHETIC_PAPERS), "--venue", SYNTHETIC_VENUE,
                   "--out", str(venue), "--labels-out", str(truth))
    project.paperrank("ingest", "file", str(venue), "--venue", SYNTHETIC_VENUE, "--profile", "iclr2026")
    project.paperrank("classify", "import", str(truth), "--taxonomy", SYNTHETIC_TAXONOMY, "--model", "truth")
    return project


@pytest.fixture(scope="session")
def synthetic_built(synthetic_loaded: Project, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """The synthetic venue after a full `dbt build` (seeds, models, data tests) with few
    replicates: its readers check the ranking and the marts' shape, not the uncertainty."""
    project = warehouse_copy(synthetic_loaded, tmp_path_factory.mktemp("synthetic"))
    project.dbt("build", "--vars", few_replicates(taxonomy=SYNTHETIC_TAXONOMY))
    return project
