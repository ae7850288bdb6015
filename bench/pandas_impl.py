"""What an analyst would otherwise write: read the raw tables into pandas and rank there.

Straightforward on purpose (groupby / merge / transform, no tricks): it is the baseline the
project's dbt pipeline should beat or match.

    python -m bench.pandas_impl --db DB --out rankings.parquet [--taxonomy icml2026]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

from bench.seeds import SEEDS, SIGNALS, Method, load

PAPER_COLUMNS = ("paper_id", "venue", "title", "primary_area", "status", "forum_url", "pdf_url",
                 "is_accepted")


def read_raw(db: Path, taxonomy: str) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        papers = con.execute(f"select {', '.join(PAPER_COLUMNS)} from raw.papers").df()
        reviews = con.execute(
            "select paper_id, rating, confidence, soundness, contribution, presentation "
            "from raw.reviews").df()
        labels = con.execute(
            "select paper_id, category, confidence, model, prompt_hash, labeled_at, loaded_at, "
            "record_hash from raw.paper_labels where taxonomy = ?", [taxonomy]).df()
    finally:
        con.close()
    return papers, reviews, labels


def rank(papers: pd.DataFrame, reviews: pd.DataFrame, labels: pd.DataFrame, method: Method,
         top_n: int = 30, venue: str | None = None, label_model: str | None = None
         ) -> pd.DataFrame:
    """Rank the accepted papers of each (venue, category) by the composite; one row each."""
    if label_model is not None:
        labels = labels[labels["model"] == label_model]
    labels = (labels.sort_values(["paper_id", "labeled_at", "loaded_at", "record_hash"],
                                 ascending=[True, False, False, True])
              .drop_duplicates("paper_id"))
    labels = labels.rename(columns={"confidence": "label_confidence", "model": "label_model",
                                    "prompt_hash": "label_prompt_hash",
                                    "category": "label_category"})

    grouped = reviews.groupby("paper_id", sort=False)
    signals = pd.DataFrame({
        "review_count": grouped.size(),
        "contribution_mean": grouped["contribution"].mean(),
        "rating_mean": grouped["rating"].mean(),
        "confidence_mean": grouped["confidence"].mean(),
        "soundness_mean": grouped["soundness"].mean(),
        "presentation_mean": grouped["presentation"].mean(),
        "rating_std": grouped["rating"].std(ddof=0),
    }).reset_index()

    frame = papers[papers["is_accepted"]].drop(columns="is_accepted")
    if venue is not None:
        frame = frame[frame["venue"] == venue]
    frame = frame.merge(labels[["paper_id", "label_category", "label_confidence", "label_model",
                                "label_prompt_hash"]], on="paper_id", how="left")
    override = frame["primary_area"].str.strip().str.lower().map(method.overrides)
    frame["category"] = override.fillna(frame["label_category"])
    frame["category_source"] = np.where(override.notna(), "primary_area_override", "label")
    frame["category_slug"] = frame["category"].map(method.ranked)
    frame = frame[frame["category_slug"].notna()]
    frame = frame.merge(signals, on="paper_id", how="inner")

    by_category = frame.groupby(["venue", "category"], sort=False)
    frame["local_top_overall"] = 0.0
    for signal in SIGNALS:
        column = by_category[signal]
        std = column.transform("std")
        z = ((frame[signal] - column.transform("mean")) / std.where(std != 0)).fillna(0.0)
        frame[f"z_{signal}"] = z
        frame[f"{signal}_term"] = method.weights[signal] * z
        frame["local_top_overall"] += frame[f"{signal}_term"]
    frame["category_size"] = by_category["paper_id"].transform("size")

    frame["_key"] = frame["local_top_overall"].round(12)
    frame = frame.sort_values(["venue", "category", "_key", "rating_mean", "paper_id"],
                              ascending=[True, True, False, False, True],
                              na_position="last").drop(columns="_key")
    frame["category_rank"] = frame.groupby(["venue", "category"], sort=False).cumcount() + 1
    frame["is_top_n"] = frame["category_rank"] <= top_n
    return frame.reset_index(drop=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pandas_impl", description=__doc__)
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True, help="parquet file for the rankings")
    parser.add_argument("--taxonomy", default="icml2026")
    parser.add_argument("--weight-set", default="article_2026")
    parser.add_argument("--seeds", type=Path, default=SEEDS,
                        help="folder of the seed CSVs (default: the project's seeds/)")
    parser.add_argument("--top-n", type=int, default=30)
    parser.add_argument("--venue")
    parser.add_argument("--label-model")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    papers, reviews, labels = read_raw(args.db, args.taxonomy)
    read = time.perf_counter() - started
    ranked = rank(papers, reviews, labels, load(args.taxonomy, args.weight_set, args.seeds), args.top_n,
                  args.venue, args.label_model)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    ranked.to_parquet(args.out, index=False)
    print(json.dumps({"read_seconds": read, "seconds": time.perf_counter() - started}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
