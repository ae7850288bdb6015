"""Do other weight sets track the outcomes better than the one in force? For every scenario of
the weight-sensitivity model (intermediate.int_weight_scenario_ranks: the leave-one-signal-out
sets and the Dirichlet draws around the official weights), the same validity figures as
marts.ranking_validity's category rows, pooled over the ranked papers of each venue: AUC of
oral/spotlight against the other accepted papers, and Spearman with citations where the venue
has them. `python -m bench.outcome_weights --db PATH` prints one table per venue.

Computed here with pandas from the marts (the figures of docs/outcomes.md), not in SQL: it is a
report on the weights, not part of the build, and it never changes the default weight set.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd


def auc(score: np.ndarray, positive: np.ndarray) -> float:
    """Mann-Whitney AUC, ties counted half."""
    ranks = pd.Series(score).rank(method="average").to_numpy()
    n1, n0 = positive.sum(), (~positive).sum()
    return float((ranks[positive].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.corrcoef(pd.Series(a).rank(), pd.Series(b).rank())[0, 1])


def scenario_figures(frame: pd.DataFrame) -> dict[str, float]:
    figures = {}
    tiered = frame["outcome_top_tier"].notna()
    if frame.loc[tiered, "outcome_top_tier"].nunique() == 2:
        figures["top_tier_auc"] = auc(frame.loc[tiered, "composite"].to_numpy(),
                                      frame.loc[tiered, "outcome_top_tier"].to_numpy() == 1)
    cited = frame["citations"].notna()
    if cited.sum() >= 3:
        figures["citations_spearman"] = spearman(frame.loc[cited, "composite"].to_numpy(),
                                                 frame.loc[cited, "citations"].to_numpy())
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    args = parser.parse_args(argv)
    con = duckdb.connect(str(args.db), read_only=True)
    scenarios = con.execute("""
        select r.venue, r.scenario, r.scenario_kind, r.paper_id, r.scenario_composite as composite,
               s.outcome_top_tier, s.citations
        from intermediate.int_weight_scenario_ranks as r
        inner join intermediate.int_validity_scores as s
            on s.paper_id = r.paper_id and s.category = r.category and s.population = 'accepted'
        union all
        select p.venue, 'official', 'official', p.paper_id, p.local_top_overall,
               s.outcome_top_tier, s.citations
        from marts.paper_rankings as p
        inner join intermediate.int_validity_scores as s
            on s.paper_id = p.paper_id and s.category = p.category and s.population = 'accepted'
    """).df()
    for venue, frame in scenarios.groupby("venue"):
        rows = []
        for (scenario, kind), group in frame.groupby(["scenario", "scenario_kind"]):
            rows.append({"scenario": scenario, "kind": kind, **scenario_figures(group)})
        table = pd.DataFrame(rows)
        metrics = [c for c in ("top_tier_auc", "citations_spearman") if c in table]
        if not metrics:
            continue
        official = table[table["kind"] == "official"].iloc[0]
        draws = table[table["kind"] == "dirichlet"]
        print(f"\n{venue}: ranked papers {frame['paper_id'].nunique()}")
        for metric in metrics:
            print(f"  {metric}: official {official[metric]:.3f}; Dirichlet draws "
                  f"min {draws[metric].min():.3f}, median {draws[metric].median():.3f}, "
                  f"max {draws[metric].max():.3f}; draws above the official "
                  f"{(draws[metric] > official[metric]).mean():.0%}")
            for row in table[table["kind"] == "leave_one_out"].itertuples():
                print(f"    {row.scenario}: {getattr(row, metric):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
