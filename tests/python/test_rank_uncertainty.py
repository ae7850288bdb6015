"""Rank uncertainty on the real ICLR 2026 data: the reviewer bootstrap reproduced exactly by an
independent numpy implementation (its own SplitMix64 and md5), its properties (intervals,
P sums, thread count, seed), golden draws, and how far the closed-form method is from it."""

from __future__ import annotations

import hashlib
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from project import Project, warehouse_copy
from project import query as read

pytestmark = pytest.mark.e2e

SEED = 2026
TOP_N = 30
GAMMA = np.uint64(0x9E3779B97F4A7C15)
WEIGHTS = {  # seeds/composite_weights.csv, article_2026, in ranking_signals() order
    "contribution_mean": 0.40,
    "rating_mean": 0.35,
    "confidence_mean": 0.10,
    "soundness_mean": 0.10,
    "presentation_mean": 0.0,
    "rating_std": -0.05,
}
# (seed, paper_id, replicate, draw, reviews) -> review number picked; computed once by the
# numpy generator below and pinned, so a change in either implementation shows up.
GOLDEN_PICKS = {
    (2026, "abc", 1, 1, 4): 1,
    (2026, "abc", 1, 2, 4): 2,
    (2026, "abc", 2, 1, 4): 2,
    (2026, "OJh7oBCYhL", 1, 1, 5): 3,
    (2026, "OJh7oBCYhL", 1000, 3, 5): 2,
    (7, "OJh7oBCYhL", 1, 1, 5): 5,
}
GOLDEN_BITS = {
    (2026, "abc", 1, 1): 7351984303342048204,
    (2026, "OJh7oBCYhL", 1000, 3): 7591748730414617916,
    (7, "OJh7oBCYhL", 1, 1): 16646068141303096719,
}


# --- the independent implementation ---------------------------------------------------------

def mix64(x: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser on uint64 (numpy wraps mod 2^64)."""
    x = np.asarray(x, dtype=np.uint64)
    with np.errstate(over="ignore"):
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def md5_key(text: str) -> np.uint64:
    return np.uint64(int.from_bytes(hashlib.md5(text.encode()).digest()[:8], "little"))


def draw_bits(seed: int, paper_id: str, replicate: np.ndarray, draw: np.ndarray) -> np.ndarray:
    state = md5_key(paper_id) ^ mix64(np.uint64(seed))
    position = np.asarray(replicate, dtype=np.uint64) * np.uint64(65536) + np.asarray(draw, np.uint64)
    with np.errstate(over="ignore"):
        return mix64(state + position * GAMMA)


def exact_z(values: np.ndarray) -> np.ndarray:
    """z-scores as macros/statistics/zscore.sql computes them, 0 where undefined: the group's
    exact integer sums of q = round(x * 64 lcm(1..20)) give its mean S / n / u and sample std
    sqrt((n Q - S^2) / (n (n - 1))) / u once, then z = (x - mean) / std per value."""
    present = ~np.isnan(values)
    grid = 14898723840.0
    q = [int(np.sign(v) * np.floor(abs(v) * grid + 0.5)) for v in values[present]]
    n = len(q)
    total, squares = sum(q), sum(v * v for v in q)
    spread = n * squares - total * total
    z = np.zeros_like(values)
    if n > 1 and spread > 0:
        mean = float(total) / n / grid
        std = np.sqrt(float(spread) / (n * (n - 1))) / grid
        z[present] = (values[present] - mean) / std
    return z


def bootstrap_ranks(reviews: pd.DataFrame, papers: pd.DataFrame, replicates: range) -> pd.DataFrame:
    """Per-replicate ranks: redraw, recompute the signals, scale their deviations from the
    point signals by sqrt(n / (n - 1)), re-standardise, weigh, rank."""
    scores = ["contribution", "rating", "confidence", "soundness", "presentation"]
    reviews = reviews.sort_values(["paper_id", "review_id"])
    by_paper = {pid: group[scores].to_numpy(float) for pid, group in reviews.groupby("paper_id")}
    reps = np.array(list(replicates), dtype=np.uint64)
    rows = []
    for paper in papers.itertuples():
        table = by_paper[paper.paper_id]
        n = len(table)
        rep_grid, draw_grid = np.meshgrid(reps, np.arange(1, n + 1, dtype=np.uint64), indexing="ij")
        picked = draw_bits(SEED, paper.paper_id, rep_grid, draw_grid) % np.uint64(n)
        drawn = table[picked.astype(np.int64)]  # (replicates, n, scores)
        with np.errstate(invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a score no review gave: nan
            means = np.nanmean(drawn, axis=1)
        ratings = drawn[:, :, 1]
        count = (~np.isnan(ratings)).sum(axis=1).astype(float)
        s1, s2 = np.nansum(ratings, axis=1), np.nansum(ratings * ratings, axis=1)
        rating_std = np.sqrt(np.maximum(count * s2 - s1 * s1, 0) / (count * count))
        # (n - 1)/n: deviations from the point signals scaled by sqrt(n / (n - 1)), n = the
        # reviews that gave each score
        given = (~np.isnan(table)).sum(axis=0)
        factor = np.where(given > 1, np.sqrt(given / np.maximum(given - 1, 1)), 1.0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            points = np.nanmean(table, axis=0)
        means = points + factor * (means - points)
        rating_std = factor[1] * rating_std
        for i, replicate in enumerate(replicates):
            rows.append((paper.category, paper.paper_id, replicate, *means[i], rating_std[i]))
    frame = pd.DataFrame(rows, columns=["category", "paper_id", "replicate",
                                        *[f"{s}_mean" for s in scores], "rating_std"])
    frame["composite"] = 0.0
    for (_, _), group in frame.groupby(["category", "replicate"]):
        composite = np.zeros(len(group))
        for signal, weight in WEIGHTS.items():
            composite = composite + weight * exact_z(group[signal].to_numpy(float))
        frame.loc[group.index, "composite"] = composite
    frame["key"] = frame["composite"].round(12)
    frame = frame.sort_values(["category", "replicate", "key", "rating_mean", "paper_id"],
                              ascending=[True, True, False, False, True])
    frame["replicate_rank"] = frame.groupby(["category", "replicate"]).cumcount() + 1
    return frame


# --- fixtures --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def built(iclr_built: Project) -> Project:
    """The real data, built with the defaults (bootstrap, B = 1000, seed 2026): the session's
    shared ICLR 2026 build (conftest.py), read only here."""
    return iclr_built


class ThreadedProject(Project):
    """The project's commands with DuckDB limited to `threads` threads."""

    def __init__(self, db, scratch, threads: str) -> None:
        super().__init__(db, scratch)
        self.threads = threads

    @property
    def env(self) -> dict[str, str]:
        return super().env | {"PAPERRANK_DUCKDB_THREADS": self.threads}


# the models downstream of the draws that a rebuild's tests read
DRAWS_TO_MARTS = ("int_bootstrap_review_draws+", "int_weight_draws+")


def rebuilt(built: Project, scratch: Path, vars_: str, threads: str = "2",
            select: tuple[str, ...] = DRAWS_TO_MARTS) -> Project:
    """A copy of the warehouse, in `scratch`, with the uncertainty models `select` rebuilt under
    other settings: dbt in this process, on the session's one parse of the project."""
    copy = warehouse_copy(built, scratch)
    copy = ThreadedProject(copy.db, copy.scratch, threads)
    copy.dbt_in_process("run", "--select", *select, dbt_vars=vars_)
    return copy


# --- tests -----------------------------------------------------------------------------------

def test_numpy_reproduces_every_replicate_rank(built: Project) -> None:
    papers = read(built.db, "select venue, category, paper_id from marts.paper_rankings")
    reviews = read(built.db, "select paper_id, review_id, contribution, rating, confidence, "
                             "soundness, presentation from staging.stg_raw__reviews "
                             "where paper_id in (select paper_id from marts.paper_rankings)")
    expected = bootstrap_ranks(reviews, papers, range(1, 6))
    actual = read(built.db, "select category, paper_id, replicate, replicate_composite, replicate_rank "
                            "from intermediate.int_bootstrap_paper_ranks where replicate <= 5")
    merged = expected.merge(actual, on=["category", "paper_id", "replicate"], how="outer",
                            indicator=True)
    assert len(merged) == 5 * 1657 and (merged["_merge"] == "both").all()
    assert (merged["composite"] - merged["replicate_composite"]).abs().max() < 1e-12
    assert (merged["replicate_rank_x"] == merged["replicate_rank_y"]).all()


def test_golden_draws() -> None:
    for (seed, paper, replicate, draw), bits in GOLDEN_BITS.items():
        assert int(draw_bits(seed, paper, np.array([replicate]), np.array([draw]))[0]) == bits
    for (seed, paper, replicate, draw, n), pick in GOLDEN_PICKS.items():
        bits = draw_bits(seed, paper, np.array([replicate]), np.array([draw]))[0]
        assert int(bits % np.uint64(n)) + 1 == pick


def test_sql_generator_gives_the_golden_draws(tmp_path: Path) -> None:
    """The SQL macros draw the golden bits and picks. The query is literals and the project's
    macros, so it needs no data: dbt shows it on an empty warehouse of its own."""
    rows = " union all ".join(
        f"select {seed} as seed, '{paper}' as paper_id, {replicate} as replicate, {draw} as draw, "
        f"{n} as reviews" for seed, paper, replicate, draw, n in GOLDEN_PICKS)
    inline = (
        "with slots as (" + rows + "), seeded as (select *, cast(seed as ubigint) as stream_state, "
        "0 as stream_position from slots), {{ splitmix64_ctes('seed_mixed', 'seeded', "
        "['paper_id', 'seed', 'replicate', 'draw', 'reviews']) }}, streams as (select paper_id, seed, "
        "replicate, draw, reviews, {{ xor64(md5_key64('paper_id'), 'random_bits') }} as stream_state, "
        "replicate * 65536 + draw as stream_position from seed_mixed), {{ splitmix64_ctes('draws', "
        "'streams', ['paper_id', 'seed', 'replicate', 'draw', 'reviews']) }} select seed, paper_id, "
        "replicate, draw, reviews, cast(random_bits as varchar) as bits, "
        "{{ mod64('random_bits', 'reviews') }} + 1 as pick from draws")
    empty = Project(tmp_path / "warehouse.duckdb", tmp_path)
    table = empty.dbt_in_process("show", "--inline", inline, "--limit", "20").results[0].agate_table
    shown = [dict(zip(table.column_names, row, strict=True)) for row in table.rows]
    assert len(shown) == len(GOLDEN_PICKS), shown
    picks = {(int(r["seed"]), r["paper_id"], int(r["replicate"]), int(r["draw"]), int(r["reviews"])):
             int(r["pick"]) for r in shown}
    assert picks == GOLDEN_PICKS
    bits = {(int(r["seed"]), r["paper_id"], int(r["replicate"]), int(r["draw"])): int(r["bits"])
            for r in shown}
    for key, value in GOLDEN_BITS.items():
        assert bits[key] == value


def test_p_top_n_sums_to_the_shortlist_and_intervals_are_ordered(built: Project) -> None:
    table = read(built.db, "select * from marts.paper_rank_uncertainty")
    assert len(table) == 1657 and set(table["uncertainty_method"]) == {"bootstrap"}
    assert (table["replicates"] == 1000).all()
    sums = table.groupby("category").agg(p=("p_top_n", "sum"), n=("paper_id", "size"))
    assert np.allclose(sums["p"], sums["n"].clip(upper=TOP_N), atol=1e-9)
    assert (table["rank_p05"] <= table["rank_p50"]).all()
    assert (table["rank_p50"] <= table["rank_p95"]).all()
    assert table["p_top_n"].between(0, 1).all()
    se = np.sqrt(table["p_top_n"] * (1 - table["p_top_n"]) / 1000)
    assert np.allclose(table["p_top_n_se"], se)
    band = np.where(table["p_top_n"] >= 0.9, "secure",
                    np.where(table["p_top_n"] > 0.1, "borderline", "outside"))
    assert (table["rank_band"] == band).all()


def test_category_stability_figures(built: Project) -> None:
    papers = read(built.db, "select * from marts.paper_rank_uncertainty")
    stability = read(built.db, "select * from marts.category_rank_stability").set_index("category")
    for category, group in papers.groupby("category"):
        row = stability.loc[category]
        top = group[group["is_top_n"]]
        assert row["expected_top_n_overlap"] == pytest.approx(top["p_top_n"].sum())
        assert row["expected_redraw_overlap"] == pytest.approx((group["p_top_n"] ** 2).sum())
        assert row["secure_papers"] == (group["rank_band"] == "secure").sum()
        assert row["fragile_top_n_papers"] == (top["p_top_n"] < 0.5).sum()
    # the finding: in categories of 100+ papers only about 13-21 of the top 30 stay
    large = stability[stability["category_size"] >= 100]
    assert large["expected_top_n_overlap"].between(12, 22).all()


def test_normal_method_agrees_with_the_bootstrap_within_the_stated_bound(built: Project) -> None:
    """README: on this data |P_normal - P_bootstrap| <= 0.20 for every paper, mean <= 0.03."""
    both = read(built.db, """
        select u.category, u.p_top_n as boot, e.p_top_n as normal
        from marts.paper_rank_uncertainty as u
        inner join intermediate.int_normal_paper_ranks as e using (paper_id)""")
    difference = (both["boot"] - both["normal"]).abs()
    assert difference.max() <= 0.20, difference.max()
    assert difference.mean() <= 0.03, difference.mean()
    assert np.corrcoef(both["boot"], both["normal"])[0, 1] >= 0.98


def test_the_normal_method_builds_the_marts(built: Project, tmp_path: Path) -> None:
    """rank_uncertainty_method normal (what `auto` picks for a large venue) builds the marts and
    passes their contracts: the mart's P and intervals are the closed form's, for every paper."""
    normal = rebuilt(built, tmp_path, "{taxonomy: iclr2026, rank_uncertainty_method: normal}",
                     select=("paper_rank_uncertainty+",))
    both = read(normal.db, """
        select u.uncertainty_method, u.p_top_n, e.p_top_n as closed_form, u.rank_p05, e.rank_p05 as lo,
               u.rank_p95, e.rank_p95 as hi
        from marts.paper_rank_uncertainty as u
        inner join intermediate.int_normal_paper_ranks as e using (paper_id)""")
    assert len(both) == 1657 and set(both["uncertainty_method"]) == {"normal"}
    assert (both["p_top_n"] == both["closed_form"]).all()
    assert (both["rank_p05"] == both["lo"]).all() and (both["rank_p95"] == both["hi"]).all()


SMALL_B = "{taxonomy: iclr2026, rank_uncertainty_replicates: 200}"


@pytest.fixture(scope="module")
def two_threads(built: Project, tmp_path_factory: pytest.TempPathFactory) -> Project:
    return rebuilt(built, tmp_path_factory.mktemp("threads2"), SMALL_B, threads="2")


def test_one_and_two_threads_give_identical_tables(built: Project, two_threads: Project,
                                                   tmp_path: Path) -> None:
    one = rebuilt(built, tmp_path, SMALL_B, threads="1")
    for table in ("intermediate.int_bootstrap_paper_ranks", "marts.paper_rank_uncertainty",
                  "marts.category_rank_stability", "marts.category_weight_sensitivity",
                  "marts.paper_weight_sensitivity", "marts.category_summary"):
        order = "1, 2, 3, 4" if "bootstrap_paper_ranks" in table else "1, 2, 3"
        a = read(one.db, f"select * from {table} order by {order}")
        b = read(two_threads.db, f"select * from {table} order by {order}")
        pd.testing.assert_frame_equal(a, b, check_exact=True)


def test_a_different_seed_moves_each_p_by_less_than_five_standard_errors(
        built: Project, two_threads: Project, tmp_path: Path) -> None:
    # the bootstrap's models alone: the weight sensitivity does not read the seed
    other = rebuilt(built, tmp_path, SMALL_B.replace("}", ", rank_uncertainty_seed: 7}"),
                    select=("int_bootstrap_review_draws+,+paper_rank_uncertainty",))
    a = read(two_threads.db, "select paper_id, p_top_n, p_top_n_se from marts.paper_rank_uncertainty")
    b = read(other.db, "select paper_id, p_top_n, p_top_n_se from marts.paper_rank_uncertainty")
    both = a.merge(b, on="paper_id")
    assert len(both) == 1657
    assert (both["p_top_n_x"] != both["p_top_n_y"]).any()  # the seed does change the draws
    # P's standard error (the exact binomial one at the pooled P, so P = 0 or 1 in one run
    # does not make the bound 0)
    pooled = (both["p_top_n_x"] + both["p_top_n_y"]) / 2
    se = np.sqrt(pooled * (1 - pooled) / 200)
    moved = (both["p_top_n_x"] - both["p_top_n_y"]).abs()
    assert (moved <= 5 * np.sqrt(2) * se).all(), both[moved > 5 * np.sqrt(2) * se]


def test_identical_reviews_collapse_every_interval(tmp_path) -> None:
    """A paper whose reviews all agree redraws to itself: every replicate is the point ranking."""
    project = Project(tmp_path / "warehouse.duckdb", tmp_path)
    venue_file, truth = tmp_path / "venue.parquet", tmp_path / "truth.parquet"
    project.cli("ingest", "synthetic", "--papers", "400", "--seed", "3", "--venue", "SAME",
                "--out", str(venue_file), "--labels-out", str(truth))
    papers = pd.read_parquet(venue_file)
    for column in ("rating", "confidence", "soundness", "contribution", "presentation"):
        papers[column] = [[list(scores)[0]] * len(scores) for scores in papers[column]]
    papers.to_parquet(venue_file)
    project.cli("ingest", "file", str(venue_file), "--venue", "SAME", "--profile", "iclr2026")
    project.cli("classify", "import", str(truth), "--taxonomy", "icml2026")
    project.dbt_in_process("seed")
    # the mart and what it is built from, not the other marts
    project.dbt_in_process("run", "--select", "+paper_rank_uncertainty",
                           dbt_vars="{top_n: 5, rank_uncertainty_replicates: 40}")
    table = read(project.db, "select * from marts.paper_rank_uncertainty")
    assert len(table) > 100 and set(table["uncertainty_method"]) == {"bootstrap"}
    for column in ("rank_p05", "rank_p50", "rank_p95", "rank_mean"):
        assert (table[column] == table["category_rank"]).all(), column
    assert set(table["p_top_n"]) == {0.0, 1.0}
    assert (table["p_top_n"] == table["is_top_n"].astype(float)).all()
    assert (table["p_top_n_se"] == 0).all()


def test_weight_sensitivity_of_large_categories_ranks_only_top_n_candidates(built: Project,
                                                                           tmp_path: Path) -> None:
    """With every category counted as large, the papers that cannot reach a scenario's top-N are
    left out of it; the top-N figures stay exact, and ranks are either exact or unknown."""
    pruned = rebuilt(built, tmp_path, "{taxonomy: iclr2026, weight_tau_max_papers: 40}",
                     select=("int_weight_draws+",))
    full_rows, pruned_rows = (
        read(p.db, "select count(*) as n from intermediate.int_weight_scenario_ranks")["n"][0]
        for p in (built, pruned))
    assert pruned_rows < full_rows / 3
    order = "order by venue, category, scenario"
    full = read(built.db, f"select * from marts.category_weight_sensitivity {order}")
    cut = read(pruned.db, f"select * from marts.category_weight_sensitivity {order}")
    assert (full["top_n_overlap"] == cut["top_n_overlap"]).all()
    assert cut.loc[cut["category_size"] > 40, "kendall_tau"].isna().all()
    full = read(built.db, "select * from marts.paper_weight_sensitivity order by paper_id")
    cut = read(pruned.db, "select * from marts.paper_weight_sensitivity order by paper_id")
    assert (full["p_top_n_weights"] == cut["p_top_n_weights"]).all()
    assert (full["is_top_n_in_every_leave_one_out"] == cut["is_top_n_in_every_leave_one_out"]).all()
    for column in ("weight_rank_p05", "weight_rank_p95", "leave_one_out_best_rank",
                   "leave_one_out_worst_rank"):
        known = cut[column].notna()
        assert known.sum() >= 30 and (full.loc[known, column] == cut.loc[known, column]).all()
