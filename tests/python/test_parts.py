"""The layers run one way, and the ranking and its extras are parts a build can choose.

- From dbt's manifest (one in-process parse): no model under models/intermediate/ reads a
  mart; every model belongs to exactly one part; no extra needs another extra's mart; the
  ranking's build_settings and category_summary read only the ranking; a marts-agree test that
  reads an extra's mart carries that extra's tag.
- A build of each extras subset (none, each extra alone, all) on a small synthetic venue
  passes `paperrank build` and `paperrank publish` (marts agree, mart checks, publish), in
  this process; build_settings and build_marts record what it holds, and the published file
  holds exactly the ranking's and those extras' marts. The build of every extra is the
  library's `synthetic_built` (`paperrank rank` on the same venue with the same settings).
- A stale mart: the working warehouse built with every extra, then with none: publishing
  gives no extra's mart, a stale one is not audited, and publishing the extras is refused.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from project import FEW_REPLICATES, REPO, InProcessDbt, Project, execute, rows, warehouse_copy

from paperrank.cli import run
from paperrank.core import build_parts
from paperrank.core.errors import PaperrankError
from paperrank.pipeline.settings import Settings, check_values
from paperrank.publish import delivery

pytestmark = pytest.mark.e2e

# the settings every build and publish here takes: the synthetic venue's taxonomy (conftest.py)
# and review form, few replicates
SETTINGS = ["--taxonomy", "icml2026", "--profile", "iclr2026",
            *(f"--{name.replace('_', '-')}={value}" for name, value in FEW_REPLICATES.items())]
SUBSETS = ["none", *build_parts.EXTRAS, "all"]


@pytest.fixture(scope="module")
def manifest(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """dbt's manifest of the project, parsed once in this process (no warehouse is read): the
    parse the builds below run on (`paperrank.pipeline.dbt.MANIFESTS`: a warehouse file named
    warehouse.duckdb, as theirs is)."""
    scratch = tmp_path_factory.mktemp("parts_manifest")
    return InProcessDbt(Project(scratch / "warehouse.duckdb", scratch)).manifest


def models(manifest: Any) -> dict[str, Any]:
    return {uid: node for uid, node in manifest.nodes.items() if node.resource_type == "model"}


def part_of(node: Any) -> str:
    found = [tag for tag in node.tags if tag in build_parts.PARTS]
    assert len(found) == 1, f"{node.unique_id} has parts {found}"
    return found[0]


def is_mart(node: Any) -> bool:
    return node.original_file_path.startswith("models/marts/")


def ancestors(manifest: Any, unique_id: str) -> set[str]:
    """Every node `unique_id` depends on, directly or not."""
    seen: set[str] = set()
    todo = [unique_id]
    while todo:
        node = manifest.nodes.get(todo.pop())
        for parent in getattr(getattr(node, "depends_on", None), "nodes", ()):
            if parent not in seen:
                seen.add(parent)
                todo.append(parent)
    return seen


def test_no_intermediate_model_reads_a_mart(manifest: Any) -> None:
    every = models(manifest)
    backwards = sorted(f"{node.name} <- {every[parent].name}"
                       for node in every.values()
                       if node.original_file_path.startswith("models/intermediate/")
                       for parent in node.depends_on.nodes
                       if parent in every and is_mart(every[parent]))
    assert backwards == []


def test_every_model_belongs_to_one_part(manifest: Any) -> None:
    found = {part_of(node) for node in models(manifest).values()}
    assert build_parts.RANKING in found and found <= set(build_parts.PARTS)


# models/<layer>/<folder>/: the part each folder holds, so that the article's method reads as its
# own path (docs/dbt_project.md, "Models") and an extra's model never hides among the ranking's
FOLDER_PARTS = {"raw": "ranking", "ranking": "ranking", "diagnostics": "ranking", "build": "ranking",
                "rank_uncertainty": "uncertainty", "rank_confidence_sets": "rank_sets",
                "outcomes": "outcomes", "picks": "picks", "related": "related", "derived": "related"}


def test_each_model_sits_in_the_folder_of_its_part(manifest: Any) -> None:
    misplaced = []
    for node in models(manifest).values():
        folders = node.original_file_path.split("/")[2:-1]  # below models/<layer>/
        if not folders or FOLDER_PARTS.get(folders[0]) != part_of(node):
            misplaced.append(f"{node.original_file_path} ({part_of(node)})")
    assert misplaced == []


def test_no_extra_needs_another_extras_mart(manifest: Any) -> None:
    """A build of one extra builds its models and their ancestors: those may be the ranking or
    the intermediate models of another extra (the rank sets read the closed-form composite
    errors), never another extra's mart, which a build without that extra must not write."""
    every = models(manifest)
    crossing = sorted(f"{node.name} needs {every[other].name}"
                      for node in every.values() if part_of(node) != build_parts.RANKING
                      for other in ancestors(manifest, node.unique_id)
                      if other in every and is_mart(every[other])
                      and part_of(every[other]) not in (build_parts.RANKING, part_of(node)))
    assert crossing == []


def test_the_ranking_reads_only_the_ranking(manifest: Any) -> None:
    """build_settings and category_summary (and every ranking model) describe a build of any
    extras: none of their ancestors belongs to an extra."""
    every = models(manifest)
    outside = sorted(f"{node.name} needs {every[other].name}"
                     for node in every.values() if part_of(node) == build_parts.RANKING
                     for other in ancestors(manifest, node.unique_id)
                     if other in every and part_of(every[other]) != build_parts.RANKING)
    assert outside == []


def test_marts_agree_tests_carry_the_extras_they_read(manifest: Any) -> None:
    """`paperrank publish` selects the marts-agree tests by tag and excludes the extras not
    built, so a test reading an extra's mart must carry that extra's tag."""
    every = models(manifest)
    untagged = sorted(f"{node.name} reads {every[parent].name}"
                      for node in manifest.nodes.values()
                      if node.resource_type == "test" and "marts_agree" in node.tags
                      for parent in node.depends_on.nodes if parent in every
                      and part_of(every[parent]) not in (build_parts.RANKING, *node.tags))
    assert untagged == []


def test_an_unknown_extra_is_refused_before_anything_runs(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PAPERRANK_DB", str(tmp_path / "absent.duckdb"))
    for command in ("build", "rank", "publish"):
        assert run([command, "--extras", "uncertainty,rank-sets"]) == 2
        lines = capsys.readouterr().err.strip().splitlines()
        assert lines == ['error: --extras: unknown extra(s) "rank-sets"; allowed: uncertainty, '
                         'rank_sets, outcomes, picks, related (comma-separated), all or none']
    assert not (tmp_path / "absent.duckdb").exists()


def test_extras_are_parsed_in_the_canonical_order() -> None:
    assert build_parts.parse("all") == build_parts.EXTRAS and build_parts.parse("none") == ()
    assert build_parts.parse("picks, uncertainty") == ("uncertainty", "picks")
    for wrong in ("", "all,none", "none,picks", "Uncertainty"):
        with pytest.raises(ValueError, match="allowed: uncertainty"):
            build_parts.parse(wrong)
    # a Settings made in code is held to the same names and order
    wrongs: list[Any] = [("picks", "uncertainty"), ("ranking",), ["uncertainty"]]
    for wrong in wrongs:
        with pytest.raises(PaperrankError, match="extras must be some of uncertainty"):
            check_values(Settings(extras=wrong))


@pytest.fixture(scope="module", autouse=True)
def one_dbt_target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """One dbt target folder for every command here (Project.env keeps DBT_TARGET_PATH when
    set), so that each reuses the last one's parse (dbt's partial parsing: the settings, and
    the working warehouse's path in the profile, are the same) instead of parsing again."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DBT_TARGET_PATH", str(tmp_path_factory.mktemp("parts_target")))
        yield


@pytest.fixture(scope="module")
def working(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The one working-warehouse path of this module's builds (see one_dbt_target)."""
    return tmp_path_factory.mktemp("parts_working") / "warehouse.duckdb"


def at_working(source: Project, working: Path, scratch: Path) -> Project:
    """A copy of `source`'s warehouse at `working`, with `scratch` for its publication."""
    scratch.mkdir(parents=True, exist_ok=True)
    wal = working.with_name(working.name + ".wal")
    wal.unlink(missing_ok=True)
    shutil.copy(source.db, working)
    source_wal = source.db.with_name(source.db.name + ".wal")
    if source_wal.exists():
        shutil.copy(source_wal, wal)
    return Project(working, scratch)


@contextlib.contextmanager
def project_env(project: Project) -> Iterator[None]:
    """The project's warehouse paths and dbt folders for a command run in this process."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(REPO)
        for name in ("PAPERRANK_DB", "PAPERRANK_PUBLISHED_DB", "DBT_TARGET_PATH", "DBT_LOG_PATH",
                     "DBT_PROFILES_DIR", "DBT_EXCLUDE_RESOURCE_TYPES"):
            patch.setenv(name, project.env[name])
        yield


def paperrank(project: Project, *args: str) -> tuple[int, str]:
    """`paperrank <args>` in this process: its exit code and what it printed."""
    printed = io.StringIO()
    with project_env(project), contextlib.redirect_stdout(printed), \
            contextlib.redirect_stderr(printed):
        code = run(list(args))
    return code, printed.getvalue()


def build(project: Project, extras: str) -> None:
    code, printed = paperrank(project, "build", "--extras", extras, *SETTINGS)
    assert code == 0, printed[-3000:]


def publish(project: Project, extras: str) -> tuple[int, str]:
    return paperrank(project, "publish", "--extras", extras, *SETTINGS)


def dbt_tests_run(project: Project) -> set[str]:
    """The tests of the last dbt command (its run_results.json)."""
    target = Path(project.env["DBT_TARGET_PATH"])
    results = json.loads((target / "run_results.json").read_text("utf-8"))
    return {r["unique_id"].split(".")[2] for r in results["results"]
            if r["unique_id"].startswith("test.")}


def marts_of(manifest: Any, chosen: tuple[str, ...]) -> set[str]:
    """The marts a build of the ranking and `chosen` holds."""
    return {node.alias for node in models(manifest).values()
            if is_mart(node) and part_of(node) in (build_parts.RANKING, *chosen)}


def published_marts(project: Project) -> set[str]:
    return {r[0] for r in rows(project.published, "select table_name from duckdb_tables() "
                                                  "where schema_name = 'marts'")}


@pytest.fixture(scope="module")
def built_all(synthetic_built: Project) -> Project:
    """The synthetic venue built with every extra: the library's `synthetic_built`, whose
    `paperrank rank` built the loaded venue with these settings and every extra (the default)
    in its working warehouse (read only: tests copy it)."""
    recorded = rows(synthetic_built.db, "select distinct taxonomy, extras, rank_uncertainty_replicates, "
                                        "weight_draws from marts.build_settings")
    assert recorded == [("icml2026", build_parts.describe(build_parts.EXTRAS),
                         FEW_REPLICATES["rank_uncertainty_replicates"], FEW_REPLICATES["weight_draws"])], recorded
    return synthetic_built


@pytest.mark.parametrize("subset", SUBSETS)
def test_each_extras_subset_builds_audits_and_publishes(
        subset: str, manifest: Any, synthetic_loaded: Project, built_all: Project,
        working: Path, tmp_path: Path) -> None:
    """Built on a fresh copy of the loaded venue (the all build is the library's
    synthetic_built), so a missing mart would fail the build, the audit or the publish: nothing
    of another part is there."""
    chosen = build_parts.parse(subset)
    # every extra has models of its own, so a build of it is more than the ranking
    assert {part_of(node) for node in models(manifest).values()} == set(build_parts.PARTS)
    if subset == "all":
        project = at_working(built_all, working, tmp_path)
    else:
        project = at_working(synthetic_loaded, working, tmp_path)
        build(project, subset)
        ran = dbt_tests_run(project)
        # the ranking's checks run whatever the extras; an extra's only with it
        assert {"build_settings__describes_the_marts",
                "marts_agree__every_accepted_paper_is_ranked_or_excluded"} <= ran
        assert ("build_settings__describes_the_uncertainty" in ran) == ("uncertainty" in chosen)
        # dbt's manifest.json is this build's: the nodes it compiled carry their SQL, the
        # extras it left out none
        written = json.loads((Path(project.env["DBT_TARGET_PATH"]) / "manifest.json").read_text("utf-8"))
        compiled = {node["name"] for node in written["nodes"].values() if node.get("compiled_code")}
        assert "paper_rankings" in compiled
        assert ("paper_rank_uncertainty" in compiled) == ("uncertainty" in chosen)
    recorded = rows(project.db, "select distinct extras from marts.build_settings")
    assert recorded == [(build_parts.describe(chosen),)]
    held = rows(project.db, "select part, mart from marts.build_marts")
    assert {part for part, _ in held} == {build_parts.RANKING, *chosen}
    assert {mart for _, mart in held} == marts_of(manifest, chosen)

    code, printed = publish(project, subset)
    assert code == 0, printed[-3000:]
    for step in ("marts agree", "mart checks", "publish"):
        assert f"{step} ... ok" in printed, printed[-3000:]
    assert ("marts_agree__expert_picks_agree_with_paper_rankings" in dbt_tests_run(project)) \
        == ("picks" in chosen)
    assert published_marts(project) == marts_of(manifest, chosen)


def test_a_stale_mart_is_never_published_nor_audited(manifest: Any, built_all: Project,
                                                     working: Path, tmp_path: Path) -> None:
    """Built with every extra, then with none in the same working warehouse: the extras'
    marts stay in it (stale), but the publication holds none of them, the audit does not read
    them (a stale paper_rank_sets broken on purpose passes unseen), and publishing them as
    this build's is refused."""
    project = at_working(built_all, working, tmp_path)
    build(project, "none")
    stale = marts_of(manifest, build_parts.EXTRAS) - marts_of(manifest, ())
    present = {r[0] for r in rows(project.db, "select table_name from duckdb_tables() "
                                              "where schema_name = 'marts'")}
    assert "paper_rank_sets" in stale and stale <= present
    # a stale mart that the rank-set mart check would fail
    execute(project.db, "update marts.paper_rank_sets set marginal_lower = category_rank + 1")

    code, printed = publish(project, "all")
    assert code == 2, printed[-3000:]
    assert "holds a build with extras none, not uncertainty,rank_sets,outcomes,picks" in printed
    # refused before anything ran: no check, and nothing published
    assert "raw checks" not in printed and "marts agree" not in printed, printed[-3000:]
    assert not project.published.exists()

    code, printed = publish(project, "none")
    assert code == 0, printed[-3000:]
    assert published_marts(project) == marts_of(manifest, ())
    assert rows(project.published, "select extras from marts.build_settings") == [("",)]


@pytest.mark.parametrize(("statement", "refusal"), [
    ("update marts.build_marts set build_id = 'an-earlier-build'", "is not of build"),
    ("drop table marts.paper_rank_sets", "lacks the marts paper_rank_sets"),
    ("drop table marts.build_marts", "has no marts.build_marts"),
    ("update marts.build_settings set extras = 'uncertainty'", "with extras uncertainty, not "),
], ids=["two-builds", "a-mart-missing", "no-list", "other-extras"])
def test_publish_refuses_a_build_it_cannot_tell_apart(built_all: Project, tmp_path: Path,
                                                       statement: str, refusal: str) -> None:
    """What publish copies is the list the build wrote: a list of another build (a build
    stopped between build_marts and build_settings), a listed mart that is missing, no list,
    or a build of other extras than asked is refused, and nothing is published."""
    project = warehouse_copy(built_all, tmp_path)
    (recorded,), = rows(project.db, "select extras from marts.build_settings")
    execute(project.db, statement)
    with pytest.raises(PaperrankError, match=refusal):
        delivery.deliver(project.db, published=project.published, extras=tuple(filter(None, recorded.split(","))))
    assert not project.published.exists()
