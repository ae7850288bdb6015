"""dbt's unit tests (fixture rows in, the exact rows out: the z-scores, the composite, the rank
uncertainty's arithmetic), run once for the whole suite on DuckDB.

They do not depend on the warehouse's data, so every other build in the suite excludes them
(`project.Project`); the Spark module runs them on Spark in its own build. dbt needs the
models' parents in the warehouse to read their column types, hence the built synthetic venue.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from project import Project, warehouse_copy

pytestmark = pytest.mark.e2e


def test_every_unit_test_passes(synthetic_built: Project, tmp_path: Path) -> None:
    copy = warehouse_copy(synthetic_built, tmp_path)
    project = Project(copy.db, copy.scratch, unit_tests=True)
    result = project.dbt("test", "--select", "test_type:unit")
    # a fresh target folder, so a full parse: every deprecated YAML form is reported here
    assert "Deprecated functionality" not in result.stdout + result.stderr, result.stdout[-3000:]
    target = project.scratch / "target"
    manifest = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
    results = json.loads((target / "run_results.json").read_text(encoding="utf-8"))["results"]
    ran = {r["unique_id"]: r["status"] for r in results if r["unique_id"].startswith("unit_test.")}
    assert set(ran) == set(manifest["unit_tests"]) and len(ran) >= 10, sorted(ran)
    assert set(ran.values()) == {"pass"}, ran
