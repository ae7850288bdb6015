"""Spark as the second engine: the real ICLR 2026 data built with dbt on DuckDB and on a local
Spark session must give the same ranking and the same CSVs, the quality gate must pass on the
Spark build, and seeds with awkward text must load identically on both engines.

All Spark work runs in this process through dbt's programmatic runner, so every test shares one
Spark session (it takes 20-40 s to start). Skipped, with the reason, only when Java is missing;
in CI (CI set) a missing Spark extra fails instead, since `.ci/run` installs it.
"""

from __future__ import annotations

import csv
import hashlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from project import REPO, Project, build_iclr2026

from engines import open_marts
from engines.dbt import run_dbt
from engines.spark import java_problem, marts_connection
from engines.spark_raw import sync

pytestmark = pytest.mark.e2e

RANKING_COLUMNS = "venue, paper_id, category, category_rank, local_top_overall"


@pytest.fixture(scope="module")
def spark(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The Spark warehouse folder of this module's one Spark session (in this process)."""
    problem = java_problem()
    if problem:
        pytest.skip(f"Spark tests need Java: {problem}")
    try:
        import dbt.adapters.spark  # noqa: F401
        import pyspark  # noqa: F401
    except ImportError as error:
        message = f"the Spark extra is not installed (make setup-spark): {error}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    warehouse = tmp_path_factory.mktemp("spark") / "warehouse"
    with pytest.MonkeyPatch.context() as patch:
        # read by profiles.yml when the session starts, and by the subprocesses tests start
        patch.setenv("PAPERRANK_SPARK_WAREHOUSE", str(warehouse))
        patch.setenv("DBT_PROFILES_DIR", str(REPO))
        yield warehouse


def dbt_options(scratch: Path, project_dir: Path = REPO) -> list[str]:
    return ["--project-dir", str(project_dir), "--profiles-dir", str(REPO),
            "--target-path", str(scratch / "target-spark"), "--log-path", str(scratch / "logs-spark")]


def spark_dbt(scratch: Path, *args: str, project_dir: Path = REPO) -> None:
    run_dbt([*args, "--target", "spark", *dbt_options(scratch, project_dir)])


@pytest.fixture(scope="module")
def built(spark: Path, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """ICLR 2026 built and exported on both engines from the same DuckDB raw layer."""
    scratch = tmp_path_factory.mktemp("engines")
    project = build_iclr2026(scratch, scratch / "exports" / "duckdb")

    sync(project.db, spark, dbt_options(scratch))
    spark_dbt(scratch, "build", "--vars", "{taxonomy: iclr2026}")
    spark_dbt(scratch, "run-operation", "export_category_csvs", "--vars", "{taxonomy: iclr2026}",
              "--args", f"{{out_dir: '{scratch / 'exports' / 'spark' / 'nested'}'}}")
    return project


def test_paper_rankings_agree(built: Project) -> None:
    duck = duckdb.connect(str(built.db), read_only=True)
    try:
        expected = duck.execute(f"select {RANKING_COLUMNS} from marts.paper_rankings").df()
    finally:
        duck.close()
    actual = open_marts("spark", built.db).execute(
        f"select {RANKING_COLUMNS} from marts.paper_rankings").df()
    assert len(expected) == 1657
    merged = expected.merge(actual, on=["venue", "paper_id"], how="outer", indicator=True,
                            suffixes=("_duckdb", "_spark"))
    assert (merged["_merge"] == "both").all(), merged[merged["_merge"] != "both"].head()
    assert (merged["category_duckdb"] == merged["category_spark"]).all()
    assert (merged["category_rank_duckdb"] == merged["category_rank_spark"]).all()
    difference = (merged["local_top_overall_duckdb"] - merged["local_top_overall_spark"]).abs()
    assert difference.max() <= 1e-12, difference.max()


def read_csv(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


def same_cell(left: str, right: str) -> bool:
    """Equal text, or numbers within 1e-12 (the engines sum doubles in another order)."""
    if left == right:
        return True
    try:
        return abs(float(left) - float(right)) <= 1e-12
    except ValueError:
        return False


def test_csvs_agree_cell_by_cell(built: Project) -> None:
    duck_folder = built.scratch / "exports" / "duckdb"
    spark_folder = built.scratch / "exports" / "spark" / "nested"
    names = sorted(p.name for p in duck_folder.iterdir())
    assert len(names) == 6
    assert sorted(p.name for p in spark_folder.iterdir()) == names
    cells = 0
    for name in names:
        duck, spark = read_csv(duck_folder / name), read_csv(spark_folder / name)
        assert duck[0] == spark[0], name
        assert len(duck) == len(spark), name
        for row, (left, right) in enumerate(zip(duck, spark, strict=True)):
            assert len(left) == len(right), (name, row)
            for column, a, b in zip(duck[0], left, right, strict=True):
                assert same_cell(a, b), (name, row, column, a, b)
                cells += 1
    assert cells == (1657 + len(names)) * len(duck[0])


def test_quality_gate_passes_on_the_spark_build(built: Project) -> None:
    result = built.python("quality", "validate", "--stage", "marts", "--taxonomy", "iclr2026",
                          "--engine", "spark", "--docs-dir", str(built.scratch / "docs"))
    assert "passed:" in result.stdout and "0 failed" in result.stdout, result.stdout


PROBE = [
    ["label", "text", "amount"],
    ["apostrophe", "the experts' pick, isn't it", "1.5"],
    ["backslash", "C:\\temp\\new \\' \\\\ end\\", "-2"],
    ["empty", "", ""],
    ["quotes", 'say "hi"; -- not a comment', "0.1"],
    ["dollar", "${env:HOME} ${spark.sql.warehouse.dir}", "3"],
    ["unicode", "Ünïcødé — ok", "1e-7"],
    ["newline", "line\n", "0"],
]
PROBE_YML = """version: 2
seeds:
  - name: text_probe
    config:
      schema: text_probe
      column_types: {label: string, text: string, amount: double}
"""
# every dispatch macro of macros/engine.sql, applied to the probe seed
DISPATCH_MODEL = """
with probe as (select * from {{ ref('text_probe') }}),
final as (
    select
        label,
        text,
        {{ md5_number('label') }} as label_number,
        {{ regex_full_match('text', 'line') }} as is_line,
        {{ regex_full_match('label', '[a-z]+') }} as is_word,
        {{ sql_string("it's C:\\\\x ${env:HOME}") }} as quoted,
        amount
    from probe
)
select {{ star_except('final', ['amount']) }} from final
"""


def test_seeds_and_dispatch_macros_agree_on_both_engines(spark: Path, tmp_path: Path) -> None:
    root = tmp_path / "project"
    shutil.copytree(REPO / "macros", root / "macros")
    for name in ("dbt_project.yml", "profiles.yml"):
        shutil.copy(REPO / name, root / name)
    (root / "seeds").mkdir()
    with (root / "seeds" / "text_probe.csv").open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(PROBE)
    (root / "seeds" / "text_probe.yml").write_text(PROBE_YML, encoding="utf-8")
    (root / "models" / "marts").mkdir(parents=True)
    (root / "models" / "marts" / "dispatch_probe.sql").write_text(DISPATCH_MODEL, encoding="utf-8")

    project = Project(tmp_path / "w.duckdb", tmp_path, root=root)
    project.dbt("build")
    spark_dbt(tmp_path, "build", project_dir=root)
    seed_sql = "select * from text_probe.text_probe order by label"
    model_sql = "select * from marts.dispatch_probe order by label"
    duck = duckdb.connect(str(project.db), read_only=True)
    try:
        seed_duckdb, model_duckdb = duck.execute(seed_sql).df(), duck.execute(model_sql).df()
    finally:
        duck.close()
    on_spark = marts_connection(spark, ("text_probe", "marts"))
    seed_spark, model_spark = on_spark.execute(seed_sql).df(), on_spark.execute(model_sql).df()

    expected = [
        [label, text or None, float(amount) if amount else None] for label, text, amount in PROBE[1:]
    ]
    assert rows(seed_duckdb) == sorted(expected)
    assert rows(seed_spark) == sorted(expected)

    assert list(model_duckdb.columns) == list(model_spark.columns) == [
        "label", "text", "label_number", "is_line", "is_word", "quoted"]
    assert rows(model_duckdb) == rows(model_spark)
    assert model_duckdb["label_number"].tolist() == [
        int(hashlib.md5(label.encode()).hexdigest()[:15], 16) for label in sorted(r[0] for r in expected)]
    assert not model_duckdb["is_line"].any()  # "line\n" is not "line" in full
    assert model_duckdb["is_word"].all()
    assert set(model_duckdb["quoted"]) == {"it's C:\\x ${env:HOME}"}


def rows(frame: pd.DataFrame) -> list[list[object]]:
    return [[None if pd.isna(value) else value for value in row]
            for row in frame.itertuples(index=False)]
