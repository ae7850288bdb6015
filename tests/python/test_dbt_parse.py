"""dbt is parsed once, without the settings, and serves every command with any settings.

`paperrank.pipeline.dbt` parses the project with no `--vars` and passes the settings to each
command, so dbt's partial parse survives a change of settings and one process parses once. That
holds only while nothing a parse keeps depends on a setting: a model enabled or disabled by a
var, a ref chosen by a var, a config read from a var would keep the value of the first parse.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from project import REPO, Project, few_replicates, rows, warehouse_copy

from paperrank.engines import dbt_target
from paperrank.pipeline import dbt as pipeline_dbt

pytestmark = pytest.mark.e2e

# every setting away from its default, the choices that used to disable models included
SETTINGS = {"taxonomy": "iclr2026", "top_n": 7, "weight_set": "article_2026", "venue": "X",
            "label_model": "m", "rank_uncertainty_method": "normal", "outcomes_method": "closed_form",
            "rank_uncertainty_replicates": 7, "weight_draws": 3, "rank_sets_coverage": 0.9}


def shape(manifest: Any) -> dict[str, Any]:
    """What a parse decides: the nodes, enabled or not, their configs and the nodes they depend
    on. (Not the macros a node's parse happened to call: a setting picks a branch of a model's
    Jinja, and the macros of that branch are rendered again, current, when the node compiles.)"""
    nodes = {uid: (node.config.enabled, node.config.materialized,
                   sorted(getattr(node.depends_on, "nodes", [])), node.config.tags)
             for uid, node in manifest.nodes.items()}
    disabled = sorted(manifest.disabled)
    return {"nodes": nodes, "disabled": disabled, "unit_tests": sorted(manifest.unit_tests)}


def parse(tmp_path: Path, vars_json: str | None) -> Any:
    from dbt.cli.main import dbtRunner

    argv = ["parse", "--project-dir", str(REPO), "--profiles-dir", str(REPO), "--quiet",
            "--target-path", str(tmp_path / "target"), "--log-path", str(tmp_path / "logs")]
    parsed = dbtRunner().invoke(argv + (["--vars", vars_json] if vars_json else []))
    assert parsed.success, parsed.exception
    return parsed.result


def test_no_setting_changes_what_dbt_parses(tmp_path: Path) -> None:
    """A var in `enabled=`, in a ref or in a config would make the two parses differ (as the
    rank-uncertainty and outcome models' `enabled=var(...)` did)."""
    plain = shape(parse(tmp_path / "plain", None))
    changed = shape(parse(tmp_path / "changed", json.dumps(SETTINGS)))
    differing = sorted(uid for uid in plain["nodes"] if plain["nodes"][uid] != changed["nodes"].get(uid))
    assert differing == [], [(uid, plain["nodes"][uid], changed["nodes"].get(uid)) for uid in differing]
    assert plain == changed


def test_one_parse_serves_builds_with_other_settings(synthetic_built: Project, tmp_path: Path) -> None:
    """Two builds in one process on one parsed manifest: the second compiles again (the rank
    sets' ephemeral model is injected into its readers again; dbt marks nodes it compiled) and
    with its own settings, which reach the models."""
    project = warehouse_copy(synthetic_built, tmp_path)
    pipeline_dbt.MANIFESTS.clear()
    critical = []
    for coverage in (0.9, 0.5):
        with project.environment():
            pipeline_dbt.Dbt(few_replicates(taxonomy="icml2026", rank_sets_coverage=coverage)).invoke(
                "run", "--select", "int_rank_set_estimates int_rank_set_critical_values")
        assert len(pipeline_dbt.MANIFESTS) == 1  # parsed once
        critical += rows(project.db, "select count(*), sum(marginal_critical_value) "
                                     "from intermediate.int_rank_set_critical_values")
    (papers, wide), (same, narrow) = critical
    assert papers == same > 0 and narrow < wide  # a lower coverage: smaller critical values


def test_dbt_log_holds_each_statement_only_when_the_operator_asks(
        synthetic_built: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pipeline writes dbt.log at info (`FILE_LOG_LEVEL`: debug's line per statement cost a
    tenth of the ranking alone); DBT_LOG_LEVEL_FILE=debug, dbt's own variable, brings every
    statement back."""
    project = warehouse_copy(synthetic_built, tmp_path)
    log = Path(project.env["DBT_LOG_PATH"]) / "dbt.log"
    statements = []
    monkeypatch.delenv("DBT_LOG_LEVEL_FILE", raising=False)
    for level in (None, "debug"):
        if level:
            monkeypatch.setenv("DBT_LOG_LEVEL_FILE", level)
        log.unlink(missing_ok=True)
        with project.environment():
            pipeline_dbt.Dbt(few_replicates(taxonomy="icml2026")).invoke("run", "--select", "stg_raw__reviews")
        text = log.read_text(encoding="utf-8")
        assert "1 of 1 OK created sql view model staging.stg_raw__reviews" in text, text[-2000:]
        statements.append("On model.paperrank.stg_raw__reviews:" in text)
    assert statements == [False, True]


def test_a_command_naming_no_target_reuses_the_pipelines_saved_parse(tmp_path: Path) -> None:
    """dbt keys its saved parse (target/partial_parse.msgpack) on the --target a command names,
    not on the target it uses: after `make rank` (which names `dev`), a command naming none
    parsed the whole project again (about 6 s), and the next `make rank` again. A `Dbt` made
    without a target names the pipeline's, so a fresh process reuses the saved parse."""
    project = Project(tmp_path / "warehouse.duckdb", tmp_path)
    kept = dict(pipeline_dbt.MANIFESTS)
    try:
        with project.environment():
            for target, top_n in ((dbt_target("duckdb"), 7), (None, 9)):
                pipeline_dbt.MANIFESTS.clear()  # as a fresh process: dbt reads the saved parse
                parsed = pipeline_dbt.Dbt(few_replicates(top_n=top_n), target=target).manifest
                assert "model.paperrank.paper_rankings" in parsed.nodes
        perf = json.loads((Path(project.env["DBT_TARGET_PATH"]) / "perf_info.json").read_text("utf-8"))
        assert perf["parsed_path_count"] == 0, perf  # the second parse read every file from the first
    finally:
        pipeline_dbt.MANIFESTS.clear()
        pipeline_dbt.MANIFESTS.update(kept)


def test_switching_warehouses_reuses_each_ones_kept_parse(tmp_path: Path) -> None:
    """dbt reuses its one saved parse only for the profile connection it was made with, the
    warehouse file's path included: ranking one venue's warehouse, then another's, then the
    first again parsed the whole project at each switch. Each parse is kept per warehouse
    (paperrank.pipeline.saved_parses), so going back to a warehouse parses no file, and again
    after that (a parse that changed nothing writes no saved parse: the target folder's is then
    the other warehouse's, never to be kept as this one's)."""
    target = tmp_path / "target"  # the operator's one target folder, as make's commands share it
    venues = [Project(tmp_path / name / f"{name}.duckdb", tmp_path / name)
              for name in ("iclr2026", "iclr2018", "iclr2026", "iclr2026")]
    kept = dict(pipeline_dbt.MANIFESTS)
    parsed_files = []
    try:
        for venue in venues:
            with venue.environment(), pytest.MonkeyPatch.context() as patch:
                patch.setenv("DBT_TARGET_PATH", str(target))
                pipeline_dbt.MANIFESTS.clear()  # as a fresh process: dbt reads a saved parse
                assert "model.paperrank.paper_rankings" in pipeline_dbt.Dbt(few_replicates()).manifest.nodes
            parsed_files.append(json.loads((target / "perf_info.json").read_text("utf-8"))["parsed_path_count"])
    finally:
        pipeline_dbt.MANIFESTS.clear()
        pipeline_dbt.MANIFESTS.update(kept)
    assert parsed_files[1] > 300, parsed_files  # another warehouse: every file, as dbt must
    assert parsed_files[2:] == [0, 0], parsed_files  # back to the first: its kept parse, no file
