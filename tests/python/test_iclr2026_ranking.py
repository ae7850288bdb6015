"""End to end on the real ICLR 2026 data: load, label, `dbt build`, export, and check the
ranking against an independent pandas reading of the method (written here, not imported)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from project import ICLR, Project, query, warehouse_copy

pytestmark = pytest.mark.e2e

RANKED = {
    "Datasets & Benchmarks": 443,
    "Inference Optimisation": 554,
    "AI for Life Sciences": 299,
    "Robotics": 211,
    "Infrastructure": 107,
    "SWE Agents": 43,
}
WEIGHTS = {
    "contribution_mean": 0.40,
    "rating_mean": 0.35,
    "confidence_mean": 0.10,
    "soundness_mean": 0.10,
    "rating_std": -0.05,
}


@pytest.fixture(scope="module")
def built(iclr_built: Project) -> Project:
    """The real data after what `make rank TAXONOMY=iclr2026` runs: checks, dbt build, audit,
    publish, export (the session's shared build, conftest.py; read only here)."""
    return iclr_built


def expected_rankings() -> pd.DataFrame:
    """The method, read straight off the article, from the shared files with pandas."""
    papers = pd.read_parquet(ICLR / "accepted_papers.parquet")
    labels = pd.read_parquet(ICLR / "peer_llm_labels.parquet")
    frame = papers.merge(labels, on="openreview_id", how="left")
    frame["category"] = np.where(
        frame["primary_area"].str.lower() == "datasets and benchmarks",
        "Datasets & Benchmarks", frame["llm_category"],
    )
    frame = frame[frame["category"].isin(RANKED)].copy()
    for signal in ("contribution", "rating", "confidence", "soundness"):
        frame[f"{signal}_mean"] = frame[signal].map(lambda scores: float(np.mean(scores)))
    frame["rating_std"] = frame["rating"].map(lambda scores: float(np.std(scores, ddof=0)))
    frame["expected"] = 0.0
    for signal, weight in WEIGHTS.items():
        grouped = frame.groupby("category")[signal]
        std = grouped.transform("std")  # sample std (ddof=1)
        z = (frame[signal] - grouped.transform("mean")) / std.where(std > 0)
        frame["expected"] += weight * z.fillna(0.0)
    frame = frame.sort_values(
        ["category", "expected", "rating_mean", "openreview_id"],
        ascending=[True, False, False, True],
        key=lambda col: col.round(12) if col.name == "expected" else col,
    )
    frame["expected_rank"] = frame.groupby("category").cumcount() + 1
    return frame.rename(columns={"openreview_id": "paper_id"})


def read(project: Project, sql: str) -> pd.DataFrame:
    return query(project.db, sql)


def test_ranked_categories_and_sizes(built: Project) -> None:
    sizes = read(built, "select category, count(*) as n, max(category_rank) as max_rank, "
                        "count(*) filter (where is_top_n) as top from marts.paper_rankings "
                        "group by category")
    assert dict(zip(sizes["category"], sizes["n"], strict=True)) == RANKED
    assert (sizes["max_rank"] == sizes["n"]).all()
    assert (sizes["top"] == sizes["n"].clip(upper=30)).all()
    assert sizes["n"].sum() == 1657


def test_composite_matches_independent_pandas(built: Project) -> None:
    actual = read(built, "select paper_id, category, local_top_overall, category_rank "
                         "from marts.paper_rankings")
    expected = expected_rankings()
    merged = expected.merge(actual, on=["paper_id", "category"], how="outer", indicator=True)
    assert (merged["_merge"] == "both").all(), merged[merged["_merge"] != "both"].head()
    difference = (merged["local_top_overall"] - merged["expected"]).abs().max()
    assert difference < 1e-9, difference
    assert (merged["category_rank"] == merged["expected_rank"]).all()


def test_every_accepted_paper_is_ranked_or_excluded_with_reason(built: Project) -> None:
    counts = read(built, """
        select
            (select count(*) from raw.papers where is_accepted) as accepted,
            (select count(*) from marts.paper_rankings) as ranked,
            (select count(*) from marts.excluded_papers) as excluded,
            (select count(*) from marts.excluded_papers where exclusion_detail is null) as silent
    """).iloc[0]
    assert counts["accepted"] == 5358
    assert counts["ranked"] + counts["excluded"] == counts["accepted"]
    assert counts["silent"] == 0


def test_exports_one_csv_per_ranked_category(built: Project) -> None:
    folder = built.scratch / "exports" / "iclr2026"
    slugs = read(built, "select distinct category, category_slug from marts.paper_rankings")
    files = sorted(p.name for p in folder.glob("*.csv"))
    assert files == sorted(f"{slug}.csv" for slug in slugs["category_slug"])
    for category, slug in zip(slugs["category"], slugs["category_slug"], strict=True):
        with (folder / f"{slug}.csv").open(newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
        assert len(rows) == RANKED[category]
        assert [int(r["category_rank"]) for r in rows] == list(range(1, len(rows) + 1))
        scores = [float(r["local_top_overall"]) for r in rows]
        assert all(a >= b - 1e-12 for a, b in zip(scores, scores[1:], strict=False))
        assert {"title", "forum_url", "z_contribution_mean", "rating_std"} <= set(rows[0])


def test_reloading_the_same_inputs_changes_nothing(built: Project, tmp_path: Path) -> None:
    built = warehouse_copy(built, tmp_path)  # the reload writes
    before = read(built, "select count(*) as n, max(loaded_at) as at from raw.reviews").iloc[0]
    result = built.cli("ingest", "file", str(ICLR / "accepted_papers.parquet"), "--venue", "ICLR 2026")
    assert "papers loaded: 5358 (0 new or changed)" in result.stdout
    after = read(built, "select count(*) as n, max(loaded_at) as at from raw.reviews").iloc[0]
    assert (before == after).all()


def test_every_model_and_column_is_documented(built: Project, tmp_path: Path) -> None:
    built = warehouse_copy(built, tmp_path)  # dbt opens the warehouse for writing
    built.dbt_in_process("docs", "generate", dbt_vars="{taxonomy: iclr2026}")
    target = built.scratch / "target"
    manifest = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
    catalog = json.loads((target / "catalog.json").read_text(encoding="utf-8"))
    assert (target / "index.html").exists()
    missing = []
    for unique_id, node in manifest["nodes"].items():
        if node["resource_type"] not in ("model", "seed"):
            continue
        if not node["description"].strip():
            missing.append(unique_id)
        documented = {name for name, col in node["columns"].items() if col["description"].strip()}
        for column in built_columns(built, node, catalog):
            if column not in documented:
                missing.append(f"{unique_id}.{column}")
    assert missing == []


def built_columns(built: Project, node: dict, catalog: dict) -> list[str]:
    """The columns a model gives: the warehouse's (dbt's catalog), or for an ephemeral model,
    which has no relation there, those of its compiled SQL run against the warehouse."""
    if node["config"]["materialized"] != "ephemeral":
        return list(catalog["nodes"][node["unique_id"]]["columns"])
    described = query(built.db, f"describe ({node['compiled_code']})")
    assert len(described) > 0, node["unique_id"]
    return described["column_name"].tolist()
