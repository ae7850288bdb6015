"""Wrong settings fail loudly, naming what is allowed; hostile vars never reach SQL.

Before this, an unknown weight_set made every composite 0, a taxonomy without labels emptied
the marts, `make build WEIGHT_SET=...` was ignored, and a crafted top_n dropped raw.papers
while dbt reported success: every one of those builds passed its tests.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from project import InProcessDbt, Project, copy_project, few_replicates, warehouse_copy

pytestmark = pytest.mark.e2e  # the quoted-vars test builds the marts
DROP = "drop table raw.papers"


@pytest.fixture(scope="module")
def venue(small_loaded: Project, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """A copy of the library's small venue (SYNTH 2026, labels of model "truth"), not built:
    the quoted-vars test builds it."""
    return warehouse_copy(small_loaded, tmp_path_factory.mktemp("settings"))


@pytest.fixture(scope="module")
def dbt(venue: Project) -> InProcessDbt:
    """dbt on the venue, in this process, parsed once: each refused setting costs a run of the
    on-run-start check, not a dbt start-up."""
    return InProcessDbt(venue)


def papers(project: Project) -> int:
    con = duckdb.connect(str(project.db), read_only=True)
    try:
        return con.execute("select count(*) from raw.papers").fetchone()[0]
    finally:
        con.close()


def marts(project: Project) -> list[str]:
    con = duckdb.connect(str(project.db), read_only=True)
    try:
        return [r[0] for r in con.execute(
            "select table_name from duckdb_tables() where schema_name = 'marts'").fetchall()]
    finally:
        con.close()


WRONG = [
    ("{weight_set: artcle_2026}", 'unknown weight_set "artcle_2026"; seeds/composite_weights.csv has: '
                                  "article_2026"),
    ("{taxonomy: icml2062}", 'unknown taxonomy "icml2062"; seeds/taxonomies.csv has: iclr2026, icml2026'),
    ("{taxonomy: iclr2026}", "taxonomy iclr2026 has no labels in raw.paper_labels, so every mart would be "
                             "empty; taxonomies with labels: icml2026"),
    ("{label_model: gpt-0}", 'label_model "gpt-0" has no labels for taxonomy icml2026; models with '
                             "labels: truth"),
    ("{venue: ICML 2026}", 'venue "ICML 2026" has no accepted papers; venues: SYNTH 2026'),
    ("{top_n: 0}", "invalid settings: top_n must be a whole number >= 1 and <= 100000, got 0"),
    ("{top_n: 2.5}", "top_n must be a whole number >= 1 and <= 100000, got 2.5"),
    ("{top_n: 'thirty'}", 'top_n must be a whole number >= 1 and <= 100000, got "thirty"'),
    ("{taxonomy: [icml2026]}", "var taxonomy must be a non-empty text"),
    # the uncertainty vars and the signal list are checked by the same hook, before anything runs
    ("{rank_uncertainty_method: bootsrap, rank_uncertainty_replicates: 0}",
     'invalid settings: rank_uncertainty_method must be one of auto, bootstrap, normal, got "bootsrap"; '
     "rank_uncertainty_replicates must be a whole number >= 1 and <= 100000, got 0"),
    ("{rank_band_outside: 0.95}", "rank_band_outside = 0.95 must be below rank_band_secure = 0.9"),
    ("{rank_sets_se_buckets: 0, rank_sets_coverage: 1.5}",
     "invalid rank-set settings: rank_sets_coverage = 1.5 (a probability strictly between 0 and 1 "
     "is allowed); rank_sets_se_buckets = 0 (a whole number from 1 to 100 is allowed)"),
    ("{rank_sets_row_budget: 2.5}",
     "rank_sets_row_budget = 2.5 (a whole number from 1 to 10000000000 is allowed)"),
    ("{outcomes_method: bootstrap}",
     'var outcomes_method must be one of auto, resample, closed_form, got "bootstrap"'),
    ("{outcomes_row_budget: -1}", "var outcomes_row_budget must be a whole number >= 0"),
    ("{related_papers: 0}", "related_papers must be a whole number >= 1 and <= 100, got 0"),
    ("{label_audit_threshold: 1.5}", "label_audit_threshold must be a number > 0 and <= 1, got 1.5"),
    ("{ranking_signals: [rating_mean, novelty_mean]}",
     "var ranking_signals must list distinct signals of rating_mean, confidence_mean"),
]


@pytest.mark.parametrize(("dbt_vars", "message"), WRONG, ids=[w[0] for w in WRONG])
def test_a_wrong_setting_fails_before_anything_is_built(venue: Project, dbt: InProcessDbt,
                                                        dbt_vars: str, message: str) -> None:
    result = dbt("build", "--vars", dbt_vars, check=False)
    assert result.returncode != 0
    assert message in result.stdout, result.stdout[-2000:]
    assert marts(venue) == []  # the hook runs before any seed or model


HOSTILE = [
    ("top_n", f"'1; {DROP}; select 1'", "invalid settings: top_n must be a whole number"),
    ("top_n", f"'30 or true) as x; {DROP}; --'", "invalid settings: top_n must be a whole number"),
    ("taxonomy", f"\"icml2026'; {DROP}; --\"", "unknown taxonomy"),
    ("weight_set", f"\"article_2026'; {DROP}; --\"", "unknown weight_set"),
    ("venue", f"\"SYNTH 2026'; {DROP}; --\"", "has no accepted papers"),
    ("label_model", f"\"truth'; {DROP}; --\"", "has no labels for taxonomy"),
    ("related_papers", f"'5; {DROP}; select 1'", "related_papers must be a whole number"),
    ("label_audit_threshold", f"'0.9 or true; {DROP}; --'", "label_audit_threshold must be a number"),
]


@pytest.mark.parametrize(("name", "value", "message"), HOSTILE, ids=[f"{h[0]}-{i}" for i, h in
                                                                     enumerate(HOSTILE)])
def test_a_hostile_var_is_refused_and_drops_nothing(venue: Project, dbt: InProcessDbt, name: str,
                                                    value: str, message: str) -> None:
    before = papers(venue)
    # top_n also reaches the data tests' SQL, so `dbt run` and `dbt test` check it too
    for command in ("build", "run", "test") if name == "top_n" else ("build",):
        result = dbt(command, "--vars", f"{{{name}: {value}}}", check=False)
        assert result.returncode != 0, command
        assert message in result.stdout, result.stdout[-2000:]
    assert papers(venue) == before > 0


def test_quoted_vars_stay_literals_in_a_real_build(venue: Project, dbt: InProcessDbt) -> None:
    """A venue name with a quote reaches SQL as a string, so the build works on it: the seeds,
    every model, and the test that compares the recorded settings with the vars (the nodes whose
    SQL holds the venue var; the other data tests do not read it)."""
    con = duckdb.connect(str(venue.db))
    try:
        con.execute("update raw.papers set venue = 'SYNTH '' 2026; --'")
    finally:
        con.close()
    try:
        built = dbt("build", "--select", "resource_type:seed resource_type:model "
                    "build_settings__records_the_vars_in_force",
                    "--vars", few_replicates(venue="SYNTH ' 2026; --", top_n=5))
        assert "PASS build_settings__records_the_vars_in_force" in built.stdout, built.stdout[-2000:]
        con = duckdb.connect(str(venue.db), read_only=True)
        try:
            rows = con.execute("select venue, top_n from marts.build_settings").fetchall()
            ranked = con.execute("select count(*) from marts.paper_rankings "
                                 "where venue = 'SYNTH '' 2026; --'").fetchone()[0]
        finally:
            con.close()
        assert rows == [("SYNTH ' 2026; --", 5)]
        assert ranked > 0  # the venue var matched the papers' venue, quote and all
    finally:
        con = duckdb.connect(str(venue.db))
        try:
            con.execute("update raw.papers set venue = 'SYNTH 2026'")
            con.execute("drop schema marts cascade")
        finally:
            con.close()


def test_make_passes_every_setting(venue: Project) -> None:
    """`make build WEIGHT_SET=...` used to be ignored; now a typo fails naming the known sets.
    Through make: that make passes the settings is the point."""
    result = venue.run("make", "--no-print-directory", "build", "WEIGHT_SET=artcle",
                       "TAXONOMY=icml2026", check=False)
    assert result.returncode != 0
    # refused by the Python check before dbt starts (stderr, exit 2), as dbt would refuse it
    assert 'unknown weight_set "artcle"; seeds/composite_weights.csv has: article_2026' in (
        result.stdout + result.stderr)
    assert "\x1b[" not in result.stdout + result.stderr  # dbt colours only on a terminal
    result = venue.run("make", "--no-print-directory", "rank", "TOP_N=1; drop table raw.papers",
                       check=False)
    assert result.returncode != 0
    assert "--top-n: must be a whole number >= 1" in result.stderr
    assert papers(venue) > 0


def test_a_weight_set_must_weigh_known_signals_summing_to_one(venue: Project, tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project")
    weights = root / "seeds" / "composite_weights.csv"
    text = weights.read_text(encoding="utf-8")
    weights.write_text(text + 'typo_set,contribuion_mean,1.0,"a typo"\n'
                       'half_set,rating_mean,0.5,"half"\n', encoding="utf-8")
    copy = InProcessDbt(Project(venue.db, tmp_path, root=root))
    result = copy("build", "--vars", "{weight_set: typo_set}", check=False)
    assert result.returncode != 0
    assert ("weight_set typo_set weighs unknown signal(s) contribuion_mean; signals (macro "
            "ranking_signals): contribution_mean, rating_mean") in result.stdout
    result = copy("build", "--vars", "{weight_set: half_set}", check=False)
    assert result.returncode != 0
    assert "weight_set half_set: absolute weights sum to 0.5, not 1" in result.stdout
