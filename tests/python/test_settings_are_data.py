"""Issue 22 point 1: settings are data, never templates.

dbt renders a string var as Jinja (`var()` -> `get_rendered`): `make rank TAXONOMY="iclr2026{{
run_query('delete from raw.reviews') and '' }}"` emptied raw.reviews, a crafted VENUE
published a manipulated ranking, and `VENUE="{{ env_var('SOME_SECRET') }}"` printed the
secret.  Every var of dbt_project.yml is tried here with one payload that would both delete
rows and print a secret, through the pipeline's flags (refused before dbt starts) and through a
direct `dbt build --vars` (refused by the on-run-start check before any `var()` call).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import yaml
from project import BIN, REPO, Project, rows

SECRET = "canary-7f3e9a-not-for-output"
PAYLOAD = ("x{{ run_query(\"delete from raw.paper_labels where paper_id like '%1'\") ~ "
           "env_var('PAPERRANK_TEST_SECRET') }}")
VARS = list(yaml.safe_load((REPO / "dbt_project.yml").read_text(encoding="utf-8"))["vars"])


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Project:
    scratch = tmp_path_factory.mktemp("settings_data")
    project = Project(scratch / "w.duckdb", scratch)
    out, truth = scratch / "v.parquet", scratch / "t.parquet"
    project.paperrank("ingest", "synthetic", "--papers", "200", "--out", str(out),
                   "--labels-out", str(truth))
    project.paperrank("ingest", "file", str(out), "--venue", "SYNTH 2026", "--profile",
                   "iclr2026")
    project.paperrank("classify", "import", str(truth), "--taxonomy", "icml2026",
                   "--model", "truth")
    return project


def labels(project: Project) -> int:
    return rows(project.db, "select count(*) from raw.paper_labels")[0][0]


def secret_env(project: Project) -> dict[str, str]:
    return {**project.env, "PAPERRANK_TEST_SECRET": SECRET}


def run(project: Project, *args: str):
    import subprocess
    return subprocess.run(list(args),
                          cwd=project.root, env=secret_env(project), capture_output=True,
                          text=True, timeout=600)


def test_every_var_is_covered() -> None:
    from paperrank.pipeline.settings import CHOICES, LISTS, NUMBERS

    names = {"taxonomy", "weight_set", "venue", "label_model", *NUMBERS, *CHOICES, *LISTS}
    assert set(VARS) <= names, set(VARS) - names


@pytest.mark.parametrize("name", [*VARS, "profile"])
def test_a_template_in_a_flag_is_refused_before_anything_runs(venue: Project, name: str) -> None:
    before = labels(venue)
    started = time.monotonic()
    result = run(venue, str(BIN / "paperrank"), "rank", f"--{name.replace('_', '-')}", PAYLOAD,
                 "--export-dir", str(venue.scratch / "exports"))
    took = time.monotonic() - started
    assert result.returncode == 2, result.stdout + result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert name.replace("_", "-") in last or name in last, last
    assert SECRET not in result.stdout + result.stderr
    assert labels(venue) == before
    assert not (venue.scratch / "target").exists()  # dbt never started
    assert took < 10, took  # a bound, not a benchmark: dbt's start-up alone takes longer


@pytest.mark.e2e  # a dbt start-up per var
@pytest.mark.parametrize("name", VARS)
def test_a_template_in_a_dbt_var_runs_nothing_and_leaks_nothing(venue: Project, name: str) -> None:
    before = labels(venue)
    result = run(venue, str(Path(venue.root) / ".venv" / "bin" / "dbt"), "build", "--vars",
                 json.dumps({name: PAYLOAD}), "--target-path", str(venue.scratch / "t2"),
                 "--log-path", str(venue.scratch / "logs"))
    assert result.returncode != 0
    # refused by the on-run-start check; a var the models' YAML renders at parse time (top_n)
    # fails dbt's parse first, where run_query does not exist: either way nothing runs
    assert (f"var {name} must not contain a Jinja template delimiter" in result.stdout
            or "Compilation Error" in result.stdout), result.stdout[-2000:]
    assert SECRET not in result.stdout + result.stderr
    log = (venue.scratch / "logs" / "dbt.log").read_text(encoding="utf-8", errors="replace")
    assert SECRET not in log
    assert labels(venue) == before
    assert rows(venue.db, "select count(*) from duckdb_tables() where schema_name = 'marts'") == [(0,)]


def test_make_rank_refuses_a_template_in_taxonomy_and_venue(venue: Project) -> None:
    before = labels(venue)
    # make quotes each value in double quotes for the shell: the payload uses single ones
    payload = "x{{ run_query('delete from raw.paper_labels') ~ env_var('PAPERRANK_TEST_SECRET') }}"
    for setting in (f"TAXONOMY={payload}", f"VENUE={payload}"):
        result = venue.run("make", "--no-print-directory", "rank", setting,
                           f"EXPORT_DIR={venue.scratch / 'exports'}", check=False)
        assert result.returncode != 0
        assert "must not contain a template delimiter" in result.stderr
        assert SECRET not in result.stdout + result.stderr
    assert labels(venue) == before


def test_a_plain_value_reaches_dbt_unchanged() -> None:
    """What is accepted is returned verbatim by dbt (no delimiter, so no template is built)."""
    from dbt.clients.jinja import get_rendered

    from paperrank.pipeline.settings import Settings, check_values

    chosen = Settings(venue="ICLR 2026: {main} track % 100 # 1 } {", label_model="m'; --")
    check_values(chosen)
    vars_ = json.loads(chosen.dbt_vars())
    assert get_rendered(vars_["venue"], {}) == chosen.venue
    assert get_rendered(vars_["label_model"], {}) == chosen.label_model
