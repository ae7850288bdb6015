"""Spark as the second engine: the real ICLR 2026 data built with dbt on DuckDB and on a local
Spark session, each audited (quality gate, marts agree) and published, must give the same
ranking, the same rank uncertainty (the bootstrap draws the same bits), the same rows in every
other mart and the same CSVs; seeds with awkward text and every engine-specific macro must give
the same values on both engines.

All Spark work runs in this process through dbt's programmatic runner, so every test shares one
Spark session (it takes 20-40 s to start): `make test` gives a module whole to one pytest-xdist
worker (--dist loadfile). The DuckDB side runs in this process too, on the worker's one parse
of the project. Skipped, with the reason, only when Java is missing; in CI (CI set) a missing
Spark extra fails instead, since `.ci/run` installs it.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from project import REPO, Project, warehouse_copy

from paperrank.engines.dbt import run_dbt
from paperrank.engines.spark import java_problem, marts_connection
from paperrank.engines.spark_raw import sync

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


# small bootstraps keep the Spark build to a minute or two; the draws must still agree (both
# engines build with these same settings, so every comparison below is as strict as at the
# defaults). 100 rank-set draws and 10 validity replicates (the defaults are 1000 and 200) are
# enough for every mart to hold rows; docs/tests.md gives the module's CPU seconds.
VARS = ("{taxonomy: iclr2026, rank_uncertainty_replicates: 40, weight_draws: 10, rank_sets_draws: 100, "
        "validity_replicates: 10}")


@pytest.fixture(scope="module")
def built(spark: Path, iclr_loaded: Project, tmp_path_factory: pytest.TempPathFactory
          ) -> dict[str, Project]:
    """ICLR 2026 built on both engines from the same DuckDB raw layer (a copy of the session's
    loaded data, conftest.py), each build audited and published (`pipeline publish`) to its own
    published file and exported from it. dbt's unit tests and every singular data test run here
    on Spark (on DuckDB the unit tests run once, in test_dbt_unit_tests.py), and one generic data
    test of each shape (`one_test_per_shape`)."""
    scratch = tmp_path_factory.mktemp("engines")
    loaded = warehouse_copy(iclr_loaded, scratch)
    duck = Project(loaded.db, scratch / "duckdb")
    # related papers, sub-themes and the label audit, computed before dbt (as `paperrank rank`
    # does) and copied to Spark by sync with the raw layer
    duck.paperrank("related", "--taxonomy", "iclr2026")
    duck.dbt_in_process("build", dbt_vars=VARS)
    on_spark = Project(duck.db, scratch / "spark")
    sync(duck.db, spark, dbt_options(scratch))
    spark_dbt(scratch, "build", "--vars", VARS, "--exclude", "test_type:generic")
    spark_dbt(scratch, "test", "--vars", VARS, "--select",
              *one_test_per_shape(scratch / "target-spark" / "manifest.json"))
    for project, engine in ((duck, "duckdb"), (on_spark, "spark")):
        # in this process: publish's marts-agree step runs dbt test on Spark, and a second
        # process could not open the Spark metastore this process's session holds
        printed = project.cli("publish", "--taxonomy", "iclr2026", "--engine", engine).stdout
        assert "[4/4] publish ... ok" in printed, printed
        project.cli("export", "--export-dir", str(project.scratch / "exports" / "nested"))
    return {"duckdb": duck, "spark": on_spark}


def one_test_per_shape(manifest_path: Path) -> list[str]:
    """One data test of each generic test's shape (its macro and the arguments it is given), by
    name: what a generic test adds on Spark is its SQL, which every test of one shape shares;
    its verdict follows from the marts, which are compared with DuckDB's row by row below.
    Each of the 170-odd data tests costs Spark about half a CPU-second whatever the table's
    size, so the module runs one of each shape (17) rather than all of them."""
    nodes = json.loads(manifest_path.read_text(encoding="utf-8"))["nodes"].values()
    shapes: dict[tuple[str, ...], str] = {}
    for node in sorted(nodes, key=lambda node: node["unique_id"]):
        metadata = node.get("test_metadata")
        if node["resource_type"] != "test" or not metadata:
            continue
        given = sorted(name for name, value in metadata["kwargs"].items()
                       if name not in ("model", "column_name") and value not in (None, [], {}))
        shapes.setdefault((metadata["name"], *given), node["name"])
    assert len(shapes) >= 15, shapes  # every macro of tests/generic/ and dbt's own, used
    return sorted(shapes.values())


def published(project: Project, sql: str) -> pd.DataFrame:
    con = duckdb.connect(str(project.published), read_only=True)
    try:
        return con.execute(sql).df()
    finally:
        con.close()


def test_paper_rankings_agree(built: dict[str, Project]) -> None:
    sql = f"select {RANKING_COLUMNS} from marts.paper_rankings"
    expected, actual = published(built["duckdb"], sql), published(built["spark"], sql)
    assert len(expected) == 1657
    merged = expected.merge(actual, on=["venue", "paper_id"], how="outer", indicator=True,
                            suffixes=("_duckdb", "_spark"))
    assert (merged["_merge"] == "both").all(), merged[merged["_merge"] != "both"].head()
    assert (merged["category_duckdb"] == merged["category_spark"]).all()
    assert (merged["category_rank_duckdb"] == merged["category_rank_spark"]).all()
    difference = (merged["local_top_overall_duckdb"] - merged["local_top_overall_spark"]).abs()
    assert difference.max() <= 1e-12, difference.max()


def test_rank_uncertainty_is_identical(built: dict[str, Project]) -> None:
    """The bootstrap's draws are the same bits on both engines, so every rank interval and band
    is the same (doubles, e.g. the composite and P(top-N), within 1e-12: the engines sum
    doubles in another order)."""
    sql = "select * from marts.paper_rank_uncertainty order by venue, category, paper_id"
    duck, spark = published(built["duckdb"], sql), published(built["spark"], sql)
    assert len(duck) == 1657 and list(duck.columns) == list(spark.columns)
    assert set(duck["uncertainty_method"]) == {"bootstrap"}
    floats = [c for c in duck.columns if pd.api.types.is_float_dtype(duck[c])]
    exact = [c for c in duck.columns if c not in floats]
    assert {"category_rank", "rank_p05", "rank_p50", "rank_p95", "rank_band"} <= set(exact)
    pd.testing.assert_frame_equal(duck[exact].astype(str), spark[exact].astype(str))
    for column in floats:
        assert (duck[column] - spark[column]).abs().max() <= 1e-12, column
    # the draws moved ranks: an interval test that cannot pass by accident
    assert (duck["rank_p95"] > duck["rank_p05"]).any()
    build = "select taxonomy, top_n, weight_set from marts.build_settings"
    assert published(built["duckdb"], build).equals(published(built["spark"], build))


# differ by design between two builds: which build, and when it ran
BUILD_IDENTITY = {"build_id", "built_at"}
# marts that must have rows on the real data, so that their comparison below means something
NON_EMPTY_MARTS = {"paper_rankings", "paper_rank_uncertainty", "category_top_n", "category_summary",
                   "category_rank_stability", "category_weight_sensitivity", "paper_weight_sensitivity",
                   "paper_rank_sets", "category_rank_sets", "excluded_papers", "build_settings",
                   "build_marts", "paper_related", "category_subthemes",
                   "paper_subthemes", "label_audit"}


def test_every_mart_agrees(built: dict[str, Project]) -> None:
    """Every published mart, not only the ranking: the same rows on both engines, text and
    whole numbers equal, doubles within 1e-12 (the weight sensitivity's Dirichlet draws and
    Kendall taus, the exclusion reasons, the category summaries...)."""
    tables = "select table_name from information_schema.tables where table_schema = 'marts' order by 1"
    names = published(built["duckdb"], tables)["table_name"].tolist()
    assert published(built["spark"], tables)["table_name"].tolist() == names
    assert set(names) >= NON_EMPTY_MARTS
    for name in names:
        duck = published(built["duckdb"], f"select * from marts.{name}")
        spark = published(built["spark"], f"select * from marts.{name}")
        assert list(duck.columns) == list(spark.columns), name
        assert len(duck) == len(spark), name
        assert len(duck) > 0 or name not in NON_EMPTY_MARTS, name
        columns = [c for c in duck.columns if c not in BUILD_IDENTITY]
        floats = [c for c in columns if pd.api.types.is_float_dtype(duck[c])]
        exact = [c for c in columns if c not in floats]
        duck, spark = (frame.sort_values(exact + floats, ignore_index=True) for frame in (duck, spark))
        pd.testing.assert_frame_equal(duck[exact].astype(str), spark[exact].astype(str), obj=name)
        for column in floats:
            assert ((duck[column] - spark[column]).abs().fillna(0) <= 1e-12).all(), (name, column)
            assert (duck[column].isna() == spark[column].isna()).all(), (name, column)


def test_every_mart_has_the_same_column_types(built: dict[str, Project]) -> None:
    """The marts' contracts are enforced on Spark too (dbt_project.yml): every column an analyst
    opens has the same type whichever engine built it (Spark's row_number() is an int and its
    1.0 literals decimals, which the marts cast), and dbt compiled every mart with its contract
    enforced for the spark target."""
    types = ("select table_name, column_name, data_type from information_schema.columns "
             "where table_schema = 'marts' order by table_name, ordinal_position")
    duck, spark = (published(built[engine], types) for engine in ("duckdb", "spark"))
    assert len(duck) > 100
    pd.testing.assert_frame_equal(duck, spark)
    manifest = json.loads((built["spark"].scratch.parent / "target-spark" / "manifest.json").read_text())
    contracts = {node["name"]: node["contract"]["enforced"] for node in manifest["nodes"].values()
                 if node["resource_type"] == "model" and node["fqn"][1] == "marts"}
    assert set(duck["table_name"]) <= set(contracts)
    assert all(contracts.values()), contracts


def test_normal_method_agrees(built: dict[str, Project], spark: Path) -> None:
    """The closed-form rank uncertainty (the method for venues too big to redraw) is built on
    every run, whichever method the marts use: its Newton-solved cutoffs and P(top-N) agree."""
    sql = ("select venue, paper_id, cutoff, p_top_n, cast(rank_p05 as bigint) as rank_p05, "
           "cast(rank_p95 as bigint) as rank_p95 "
           "from intermediate.int_normal_paper_ranks order by venue, paper_id")
    con = duckdb.connect(str(built["duckdb"].db), read_only=True)
    try:
        duck = con.execute(sql).df()
    finally:
        con.close()
    on_spark = marts_connection(spark, ("intermediate",)).execute(sql).df()
    assert len(duck) == 1657
    pd.testing.assert_frame_equal(duck[["venue", "paper_id", "rank_p05", "rank_p95"]],
                                  on_spark[["venue", "paper_id", "rank_p05", "rank_p95"]])
    for column in ("cutoff", "p_top_n"):
        assert (duck[column] - on_spark[column]).abs().max() <= 1e-12, column
    assert ((duck["p_top_n"] > 0) & (duck["p_top_n"] < 1)).any()  # some places are uncertain


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


def test_csvs_agree_cell_by_cell(built: dict[str, Project]) -> None:
    duck_folder = built["duckdb"].scratch / "exports" / "nested"
    spark_folder = built["spark"].scratch / "exports" / "nested"
    names = sorted(p.name for p in duck_folder.iterdir() if p.suffix == ".csv")
    assert len(names) == 6
    assert sorted(p.name for p in spark_folder.iterdir() if p.suffix == ".csv") == names
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
# every dispatch macro of macros/engine_shims/ and macros/random/, applied to the probe seed; the 64-bit draws of
# macros/random/splitmix64.sql are read back as 63-bit halves (same type on both engines)
DISPATCH_MODEL = """
{{ config(contract={"enforced": false}) }}
with probe as (select * from {{ ref('text_probe') }}),
keyed as (
    select label, text, amount, {{ md5_key64('label') }} as stream_state,
        {{ uint64(7) }} as stream_position
    from probe
),
{{ splitmix64_ctes('drawn', 'keyed', ['label', 'text', 'amount', 'stream_state']) }},
final as (
    select
        label,
        text,
        cast({{ shift_right64('stream_state', 1) }} as bigint) as key_high,
        cast({{ shift_right64('random_bits', 1) }} as bigint) as draw_high,
        cast({{ mod64('random_bits', 1000003) }} as bigint) as draw_mod,
        cast({{ integer_divide('cast(' ~ mod64('random_bits', 1000003) ~ ' as bigint)', 1000) }}
            as bigint) as draw_thousands,
        {{ unit_interval64('random_bits') }} as draw_uniform,
        {{ regex_full_match('text', 'line') }} as is_line,
        {{ regex_full_match('label', '[a-z]+') }} as is_word,
        {{ sql_string("it's C:\\\\x ${env:HOME}") }} as quoted,
        {{ latex_to_text('text') }} as text_plain,
        cast({{ sum_int128(shift_right64('stream_state', 1)) }} over () as string) as key_high_total,
        amount
    from drawn
)
select {{ star_except('final', ['amount']) }} from final
"""
MASK = (1 << 64) - 1


def splitmix64(state: int, position: int) -> int:
    """The draw of macros/random/splitmix64.sql, in Python integers."""
    z = (state + position * 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def test_seeds_and_dispatch_macros_agree_on_both_engines(spark: Path, tmp_path: Path) -> None:
    root = tmp_path / "project"
    shutil.copytree(REPO / "macros", root / "macros")
    shutil.copy(REPO / "profiles.yml", root / "profiles.yml")
    # the project's settings, without its settings checks (this project has no raw layer and
    # none of the seeds they read)
    settings = (REPO / "dbt_project.yml").read_text(encoding="utf-8")
    hooks = re.search(r"^on-run-start:\n(?:  - .*\n)+", settings, flags=re.MULTILINE)
    assert hooks and "check_settings()" in hooks.group(0)
    (root / "dbt_project.yml").write_text(settings.replace(hooks.group(0), "on-run-start: []\n"),
                                          encoding="utf-8")
    (root / "seeds").mkdir()
    with (root / "seeds" / "text_probe.csv").open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(PROBE)
    (root / "seeds" / "text_probe.yml").write_text(PROBE_YML, encoding="utf-8")
    (root / "models" / "marts").mkdir(parents=True)
    (root / "models" / "marts" / "dispatch_probe.sql").write_text(DISPATCH_MODEL, encoding="utf-8")

    project = Project(tmp_path / "warehouse.duckdb", tmp_path, root=root)
    project.dbt_in_process("build")
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
        "label", "text", "key_high", "draw_high", "draw_mod", "draw_thousands", "draw_uniform",
        "is_line", "is_word", "quoted", "text_plain", "key_high_total"]
    assert rows(model_duckdb) == rows(model_spark)
    keys = {label: int.from_bytes(hashlib.md5(label.encode()).digest()[:8], "little")
            for label in model_duckdb["label"]}
    draws = {label: splitmix64(key, 7) for label, key in keys.items()}
    assert model_duckdb["key_high"].tolist() == [keys[label] >> 1 for label in model_duckdb["label"]]
    assert model_duckdb["draw_high"].tolist() == [draws[label] >> 1 for label in model_duckdb["label"]]
    assert model_duckdb["draw_mod"].tolist() == [draws[label] % 1000003 for label in model_duckdb["label"]]
    assert model_duckdb["draw_thousands"].tolist() == [
        draws[label] % 1000003 // 1000 for label in model_duckdb["label"]]
    assert max(keys.values()) >= 1 << 63 and max(draws.values()) >= 1 << 63  # the sign bit is used
    assert not model_duckdb["is_line"].any()  # "line\n" is not "line" in full
    assert model_duckdb["is_word"].all()
    assert set(model_duckdb["quoted"]) == {"it's C:\\x ${env:HOME}"}
    plain = dict(zip(model_duckdb["label"], model_duckdb["text_plain"], strict=True))
    assert plain["backslash"] == "C:tempnew \\' \\\\ end\\"  # \temp and \new read as commands
    assert plain["dollar"] == "env:HOME spark.sql.warehouse.dir"
    assert plain["newline"] == "line"
    # the exact sum of 63-bit halves is past a BIGINT's range
    total = sum(key >> 1 for key in keys.values())
    assert total >= 1 << 63 and set(model_duckdb["key_high_total"]) == {str(total)}


def rows(frame: pd.DataFrame) -> list[list[object]]:
    return [[None if pd.isna(value) else value for value in row]
            for row in frame.itertuples(index=False)]


def test_the_outcomes_closed_forms_agree(built: dict[str, Project], spark: Path) -> None:
    """The outcome models' closed forms (what `auto` takes where resampling would not fit
    outcomes_row_budget) on both engines: DeLong's intervals of ranking_validity agree, and the
    posterior mart, whose prior cannot be fitted on accepted papers only, says so on both. Last
    in the module: it rebuilds these models in both warehouses (the published files, which the
    other tests read, stay as they were)."""
    closed = VARS[:-1] + ", outcomes_row_budget: 0}"
    models = ["int_validity_groups", "int_validity_group_papers", "int_validity_samples",
              "int_validity_bootstrap_metrics", "int_validity_group_scores", "int_validity_sample_auc",
              "int_validity_sample_spearman", "int_validity_sample_metrics", "ranking_validity",
              "int_eb_posterior_draws", "paper_posterior_rankings"]
    duck = built["duckdb"]
    duck.dbt_in_process("run", "-s", *models, dbt_vars=closed)
    spark_dbt(built["spark"].scratch, "run", "-s", *models, "--vars", closed)
    sql = ("select venue, category, population, outcome, score, metric, value, n, n_positive, "
           "ci_low, ci_high, interval_method from marts.ranking_validity "
           "order by venue, category, population, outcome, score")
    con = duckdb.connect(str(duck.db), read_only=True)
    try:
        on_duckdb = con.execute(sql).df()
        posterior_duckdb = con.execute("select prior_status, count(*) as papers from "
                                       "marts.paper_posterior_rankings group by 1").df()
    finally:
        con.close()
    marts = marts_connection(spark)
    on_spark = marts.execute(sql).df()
    posterior_spark = marts.execute("select prior_status, count(*) as papers from "
                                    "marts.paper_posterior_rankings group by 1").df()
    assert len(on_duckdb) > 0 and set(on_duckdb["interval_method"]) == {"delong"}
    exact = ["venue", "category", "population", "outcome", "score", "metric", "n", "n_positive",
             "interval_method"]
    pd.testing.assert_frame_equal(on_duckdb[exact].astype(str), on_spark[exact].astype(str))
    for column in ("value", "ci_low", "ci_high"):
        assert (on_duckdb[column] - on_spark[column]).abs().max() <= 1e-12, column
    assert (on_duckdb["ci_low"] < on_duckdb["ci_high"]).all()
    assert posterior_duckdb.to_dict("records") == posterior_spark.to_dict("records") == [
        {"prior_status": "not_fitted", "papers": 1657}]
