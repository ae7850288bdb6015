"""`make help` as a new user runs it: every target and every setting with its current value.

`make demo`'s summary (short, no escape codes off a terminal, a query that works as printed) is
checked where the docs' walkthrough runs it, test_many_venues (one `make demo` for both).
"""

from __future__ import annotations

import pytest
from project import Project

pytestmark = pytest.mark.e2e


def test_make_help_lists_targets_and_every_setting_with_its_value(tmp_path) -> None:
    project = Project(tmp_path / "w.duckdb", tmp_path)
    result = project.run("make", "--no-print-directory", "help", "TOP_N=7", "WEIGHT_SET=mine",
                         "VENUE=ICLR 2026")
    for target in ("demo", "run", "rank", "build", "publish", "export", "rollback", "publications",
                   "docs", "validate", "test", "bench"):
        assert f" {target} " in result.stdout or f" {target}\n" in result.stdout, target
    for setting in ("TAXONOMY=icml2026", "TOP_N=7", "WEIGHT_SET=mine", "VENUE=ICLR 2026",
                    "LABEL_MODEL=", "PROFILE=", "EXTRAS=", "EXPORT_DIR=", "CSV_BOM=no",
                    f"PAPERRANK_DB={project.db}", f"PAPERRANK_PUBLISHED_DB={project.published}"):
        assert setting in result.stdout, setting
