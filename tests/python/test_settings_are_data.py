"""Settings are data, never templates.

dbt renders a string var as Jinja (`var()` -> `get_rendered`): `make rank TAXONOMY="iclr2026{{
run_query('delete from raw.reviews') and '' }}"` emptied raw.reviews, a crafted VENUE
published a manipulated ranking, and `VENUE="{{ env_var('SOME_SECRET') }}"` printed the
secret.  Every var of dbt_project.yml is tried here with one payload that would both delete
rows and print a secret, through the pipeline's flags (refused before dbt starts: `paperrank rank`
in this process, which must leave dbt unparsed) and through a direct `dbt build --vars`
(refused by the on-run-start check before any `var()` call: dbt in this process, parsed once).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
import yaml
from project import REPO, InProcessDbt, Project, dbt_not_started, rows, warehouse_copy

SECRET = "canary-7f3e9a-not-for-output"
PAYLOAD = ("x{{ run_query(\"delete from raw.paper_labels where paper_id like '%1'\") ~ "
           "env_var('PAPERRANK_TEST_SECRET') }}")
VARS = list(yaml.safe_load((REPO / "dbt_project.yml").read_text(encoding="utf-8"))["vars"])


@pytest.fixture(scope="module")
def venue(small_loaded: Project, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """A copy of the library's small venue, loaded and labelled, never built: a payload that
    ran would delete its labels or build its marts."""
    return warehouse_copy(small_loaded, tmp_path_factory.mktemp("settings_data"))


@pytest.fixture(scope="module")
def dbt(venue: Project, tmp_path_factory: pytest.TempPathFactory) -> InProcessDbt:
    """dbt on the venue, in this process, parsed once (its target and logs in a folder of its
    own, so the flag tests still see the venue's target folder never made)."""
    return InProcessDbt(venue.in_scratch(tmp_path_factory.mktemp("settings_data_dbt")))


@pytest.fixture(autouse=True)
def secret(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The secret a payload would print, in the environment of every command (this process's
    and those it starts)."""
    monkeypatch.setenv("PAPERRANK_TEST_SECRET", SECRET)
    yield


def labels(project: Project) -> int:
    return rows(project.db, "select count(*) from raw.paper_labels")[0][0]


def test_every_var_is_covered() -> None:
    from paperrank.pipeline.settings import CHOICES, LISTS, NUMBERS

    # setting_rules holds the rules themselves: the project's, refused on the command line
    names = {"taxonomy", "weight_set", "venue", "label_model", "setting_rules", *NUMBERS, *CHOICES,
             *LISTS}
    assert set(VARS) <= names, set(VARS) - names


@pytest.mark.parametrize("name", [*VARS, "profile"])
def test_a_template_in_a_flag_is_refused_before_anything_runs(venue: Project, name: str) -> None:
    before = labels(venue)
    with dbt_not_started(venue):  # no parse, no target folder
        result = venue.cli("rank", f"--{name.replace('_', '-')}", PAYLOAD,
                           "--export-dir", str(venue.scratch / "exports"), check=False)
    assert result.returncode == 2, result.stdout + result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert name.replace("_", "-") in last or name in last, last
    assert SECRET not in result.stdout + result.stderr
    assert labels(venue) == before
    assert not (venue.scratch / "exports").exists()


@pytest.mark.e2e  # a dbt command per var (on one parse)
@pytest.mark.parametrize("name", VARS)
def test_a_template_in_a_dbt_var_runs_nothing_and_leaks_nothing(venue: Project, dbt: InProcessDbt,
                                                                 name: str) -> None:
    before = labels(venue)
    result = dbt("build", "--vars", json.dumps({name: PAYLOAD}), check=False)
    assert result.returncode != 0
    # refused by the on-run-start check, before any var() renders it: nothing runs (the parse
    # has no vars, so no var fails it first any more)
    assert f"var {name} must not contain a Jinja template delimiter" in result.stdout, \
        result.stdout[-2000:]
    assert SECRET not in result.stdout + result.stderr
    log = (dbt.project.scratch / "logs" / "dbt.log").read_text(encoding="utf-8", errors="replace")
    assert SECRET not in log
    assert labels(venue) == before
    assert rows(venue.db, "select count(*) from duckdb_tables() where schema_name = 'marts'") == [(0,)]


def test_make_rank_refuses_a_template_in_taxonomy_and_venue(venue: Project) -> None:
    # through make: how make hands a value to the shell is the point
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
