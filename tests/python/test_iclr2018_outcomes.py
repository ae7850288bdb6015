"""ICLR 2018 end to end, as an operator runs a new venue (all 995 submissions, a two-score
review form, decisions and citations), and the outcome marts checked against an independent
pandas reading: ranking_validity's AUCs (Mann-Whitney, ties half, by explicit pair counting)
and Spearman correlations (average ranks), and the empirical-Bayes posteriors."""

from __future__ import annotations

import gzip
import json
import math
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from project import SHARED, Project, replicate_options, require_shared, rows, warehouse_copy

pytestmark = pytest.mark.e2e  # loads and builds the ICLR 2018 venue

ICLR2018 = SHARED / "data" / "iclr2018" / "paperlists_iclr2018.json.gz"
VENUE = "ICLR 2018"
# seeds/composite_weights.csv, weight set rating_confidence (the article's weights renormalised)
WEIGHTS = {"rating_mean": 0.70, "confidence_mean": 0.20, "rating_std": -0.10}
TIERS = {"Oral": "oral", "Poster": "poster", "Workshop": "rejected", "Reject": "rejected",
         "Withdraw": "withdrawn", "Active": "undecided"}


def records() -> list[dict]:
    return json.loads(gzip.open(require_shared(ICLR2018)).read())


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Project:
    path = require_shared(ICLR2018)
    scratch = tmp_path_factory.mktemp("iclr2018")
    project = Project(scratch / "warehouse.duckdb", scratch)
    project.cli("ingest", "file", str(path), "--venue", VENUE)
    project.cli("classify", "run", "--taxonomy", "icml2026", "--backend", "keywords")
    # what `make rank VENUE="ICLR 2018" TAXONOMY=icml2026 WEIGHT_SET=rating_confidence` runs, in
    # this process, with few rank-uncertainty replicates: the tests read the outcome marts, whose
    # posterior draws and validity bootstrap keep their own 200
    project.cli("rank", "--taxonomy", "icml2026", "--venue", VENUE,
                "--weight-set", "rating_confidence", *replicate_options(),
                "--export-dir", str(scratch / "exports"),
                "--report-dir", str(scratch / "report"))
    return project


def test_every_record_is_loaded_or_rejected_and_statuses_match_the_file(built: Project) -> None:
    data = records()
    (read, loaded, rejected), = rows(
        built.db, "select records_read, papers_loaded, records_rejected from raw.loads "
                  "where kind = 'paperlists'")
    assert read == len(data) == 995
    assert loaded + rejected == read
    assert rows(built.db, "select count(*) from raw.rejected_records") == [(rejected,)]
    by_status = dict(rows(built.db, "select status, count(*) from raw.papers group by status"))
    assert by_status == dict(Counter(r["status"] for r in data))
    assert by_status == {"Oral": 23, "Poster": 314, "Workshop": 90, "Reject": 496,
                         "Withdraw": 69, "Active": 3}
    # the one status rule: tier and acceptance per status
    mapped = rows(built.db, "select distinct status, decision_tier, is_accepted from raw.papers")
    assert {s: (t, a) for s, t, a in mapped} == {
        s: (t, s in ("Oral", "Poster")) for s, t in TIERS.items()}


def test_citations_load_with_their_source_and_minus_one_as_null(built: Project) -> None:
    expected = {r["id"]: (None if r["gs_citation"] == -1 else r["gs_citation"]) for r in records()}
    loaded = dict(rows(built.db, "select paper_id, citations from staging.stg_raw__papers"))
    assert loaded == expected
    assert sum(v is None for v in loaded.values()) == 40
    sources = rows(built.db, "select distinct citations_source from staging.stg_raw__papers")
    assert len(sources) == 1 and "gs_citation" in sources[0][0]


def test_ranking_uncertainty_csvs_and_report_build(built: Project) -> None:
    ranked, = rows(built.db, "select count(*) from marts.paper_rankings")
    assert ranked[0] > 0
    uncertain, = rows(built.db, "select count(*) from marts.paper_rank_uncertainty")
    assert uncertain == ranked
    assert rows(built.db, "select distinct weight_set from marts.build_settings") == [
        ("rating_confidence",)]
    manifest = json.loads((built.scratch / "exports" / "manifest.json").read_text())
    assert sum(f["rows"] for f in manifest["files"]) == ranked[0]
    page = (built.scratch / "report" / "iclr-2018.html").read_text(encoding="utf-8")
    assert "How far to trust this ranking" in page


def test_a_weight_set_needing_a_missing_signal_fails_naming_it(built: Project) -> None:
    result = built.cli("rank", "--taxonomy", "icml2026", "--venue", VENUE,
                       "--export-dir", str(built.scratch / "exports_default"), check=False)
    assert result.returncode != 0
    out = result.stdout + result.stderr
    last = [line for line in out.splitlines() if line.startswith("error:")][-1]
    for words in ("weight_set article_2026", "contribution_mean", "soundness_mean", '"ICLR 2018"',
                  "rating_confidence"):
        assert words in last, last
    assert not (built.scratch / "exports_default").exists()


# ---- an independent reading of the validity figures ------------------------------------------

def papers_frame() -> pd.DataFrame:
    frame = pd.DataFrame(records())
    frame = frame[frame["rating"].str.len() > 0].copy()
    for field in ("rating", "confidence"):
        frame[field] = frame[field].map(lambda text: [float(x) for x in text.split(";")])
        frame[f"{field}_mean"] = frame[field].map(np.mean)
        frame[f"{field}_n"] = frame[field].map(len)
        frame[f"{field}_ss"] = frame[field].map(lambda xs: float(np.sum((np.array(xs) - np.mean(xs)) ** 2)))
    frame["rating_std"] = frame["rating"].map(lambda xs: float(np.std(xs, ddof=0)))
    frame["citations"] = frame["gs_citation"].where(frame["gs_citation"] >= 0)
    frame["accepted"] = frame["status"].isin(["Oral", "Poster"])
    return frame


def composite(frame: pd.DataFrame, means: dict[str, pd.Series] | None = None) -> pd.Series:
    """The article's composite over `frame`: z-scores with the sample sd, an undefined one 0;
    `means` replaces a field's values (the posterior means) but keeps the plain means' scale."""
    total = pd.Series(0.0, index=frame.index)
    for signal, weight in WEIGHTS.items():
        values = (means or {}).get(signal, frame[signal])
        sd = frame[signal].std(ddof=1)
        total += weight * ((values - frame[signal].mean()) / sd if sd > 0 else 0.0)
    return total


def auc(score: pd.Series, positive: pd.Series) -> float:
    """The share of (positive, negative) pairs in the right order, ties counted half."""
    pos = score[positive].to_numpy()[:, None]
    neg = score[~positive].to_numpy()[None, :]
    return float(((pos > neg) + 0.5 * (pos == neg)).mean())


def spearman(a: pd.Series, b: pd.Series) -> float:
    return float(np.corrcoef(a.rank(method="average"), b.rank(method="average"))[0, 1])


def posterior_means(frame: pd.DataFrame, field: str) -> pd.Series:
    """Normal-normal posterior means with the prior fitted by moments on every row of `frame`."""
    n = frame[f"{field}_n"]
    sigma2 = frame[f"{field}_ss"].sum() / (n.sum() - len(frame))
    mu = frame[f"{field}_mean"].mean()
    tau2 = max(frame[f"{field}_mean"].var(ddof=1) - sigma2 * (1 / n).mean(), 0.0)
    shrink = tau2 / (tau2 + sigma2 / n)
    return mu + shrink * (frame[f"{field}_mean"] - mu)


def validity(built: Project) -> pd.DataFrame:
    import duckdb
    con = duckdb.connect(str(built.db), read_only=True)
    try:
        return con.execute("select * from marts.ranking_validity").df()
    finally:
        con.close()


def test_venue_wide_validity_matches_pandas(built: Project) -> None:
    marts = validity(built)
    venue = marts[marts["category"].isna()].set_index(["population", "outcome", "score"])
    everything = papers_frame()
    accepted = everything[everything["accepted"]].copy()
    posterior_all = {f"{f}_mean": posterior_means(everything, f) for f in ("rating", "confidence")}
    scores = {
        "all_submissions": {
            "local_top_overall": composite(everything),
            "rating_mean": everything["rating_mean"],
            "confidence_mean": everything["confidence_mean"],
            "posterior_mean": composite(everything, posterior_all),
        },
        "accepted": {
            "local_top_overall": composite(accepted),
            "rating_mean": accepted["rating_mean"],
            "confidence_mean": accepted["confidence_mean"],
            "posterior_mean": composite(accepted, {k: v[accepted.index] for k, v in posterior_all.items()}),
        },
    }
    checked = 0
    for score, values in scores["all_submissions"].items():
        decided = everything["status"].isin(["Oral", "Poster", "Workshop", "Reject"])
        row = venue.loc[("all_submissions", "accepted", score)]
        assert row["value"] == pytest.approx(auc(values[decided], everything["accepted"][decided]), abs=1e-9)
        assert row["n"] == decided.sum()
        cited = everything["citations"].notna()
        row = venue.loc[("all_submissions", "citations", score)]
        assert row["value"] == pytest.approx(spearman(values[cited], everything["citations"][cited]), abs=1e-9)
        checked += 2
    for score, values in scores["accepted"].items():
        row = venue.loc[("accepted", "top_tier", score)]
        assert row["value"] == pytest.approx(auc(values, accepted["status"] == "Oral"), abs=1e-9)
        assert (row["n"], row["n_positive"]) == (337, 23)
        cited = accepted["citations"].notna()
        row = venue.loc[("accepted", "citations", score)]
        assert row["value"] == pytest.approx(spearman(values[cited], accepted["citations"][cited]), abs=1e-9)
        checked += 2
    assert checked == 16
    # the seeded bootstrap: 200 replicates, an interval around the value
    assert (venue["replicates"] == 200).all()
    assert (venue["ci_low"] <= venue["value"]).all() and (venue["value"] <= venue["ci_high"]).all()
    everyone = venue.xs("all_submissions", level="population")
    assert everyone["ceiling"].notna().all() and (everyone["ceiling"] > 0.5).all()
    among_accepted = venue.xs("accepted", level="population")
    assert among_accepted["ceiling"].isna().all() and among_accepted["ceiling_note"].notna().all()


def test_category_validity_uses_the_articles_composite(built: Project) -> None:
    marts = validity(built)
    ranked = pd.DataFrame(rows(built.db, """
        select paper_id, category, local_top_overall, rating_mean from marts.paper_rankings"""),
        columns=["id", "category", "local_top_overall", "rating_mean"])
    frame = papers_frame().merge(ranked[["id", "category"]], on="id")
    checked = 0
    for category, group in frame.groupby("category"):
        cited = group["citations"].notna()
        expected = {"local_top_overall": composite(group), "rating_mean": group["rating_mean"]}
        for score, values in expected.items():
            found = marts[(marts["category"] == category) & (marts["outcome"] == "citations")
                          & (marts["score"] == score)]
            if cited.sum() >= 3:
                assert found["value"].item() == pytest.approx(
                    spearman(values[cited], group["citations"][cited]), abs=1e-9)
                checked += 1
            oral = group["status"] == "Oral"
            found = marts[(marts["category"] == category) & (marts["outcome"] == "top_tier")
                          & (marts["score"] == score)]
            if oral.any() and not oral.all():
                assert found["value"].item() == pytest.approx(auc(values, oral), abs=1e-9)
                checked += 1
            else:
                assert found.empty  # one class only: no AUC
    assert checked > 0


def test_posteriors_match_pandas_and_draws_repeat(built: Project) -> None:
    frame = papers_frame().set_index("id")
    for field in ("rating", "confidence"):
        expected = posterior_means(frame, field)
        found = dict(rows(built.db, f"""
            select paper_id, posterior_mean from intermediate.int_eb_posteriors
            where field = '{field}'"""))
        assert len(found) == len(expected) == 972
        assert max(abs(found[i] - expected[i]) for i in expected.index) < 1e-9
    before = rows(built.db, """select paper_id, posterior_expected_rank, posterior_p_top_n
                               from marts.paper_posterior_rankings order by paper_id""")
    assert before and all(r[1] is not None for r in before)
    built.dbt_in_process("run", "-s", "int_eb_posterior_draws", "paper_posterior_rankings",
                         dbt_vars=json.dumps({"weight_set": "rating_confidence", "venue": VENUE}))
    after = rows(built.db, """select paper_id, posterior_expected_rank, posterior_p_top_n
                              from marts.paper_posterior_rankings order by paper_id""")
    assert after == before


# ---- the closed forms (outcomes_method), against an independent reading -----------------------

def delong_interval(score: pd.Series, positive: pd.Series) -> tuple[float, float]:
    """AUC -/+ 1.96 DeLong standard errors, clipped to [0, 1], from every (positive, negative) pair."""
    pos = score[positive].to_numpy()[:, None]
    neg = score[~positive].to_numpy()[None, :]
    wins = (pos > neg) + 0.5 * (pos == neg)
    value = wins.mean()
    se = np.sqrt(wins.mean(axis=1).var(ddof=1) / wins.shape[0] + wins.mean(axis=0).var(ddof=1) / wins.shape[1])
    return max(0.0, value - 1.959963984540054 * se), min(1.0, value + 1.959963984540054 * se)


def fisher_interval(a: pd.Series, b: pd.Series) -> tuple[float, float]:
    """Spearman's rho through Fisher's z, Bonett and Wright's variance (1 + rho^2 / 2) / (n - 3)."""
    rho = spearman(a, b)
    se = np.sqrt((1 + rho * rho / 2) / (len(a) - 3))
    return (float(np.tanh(np.arctanh(rho) - 1.959963984540054 * se)),
            float(np.tanh(np.arctanh(rho) + 1.959963984540054 * se)))


def phi(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))


@pytest.fixture(scope="module")
def closed_form(built: Project, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """The same build with `auto` and no room to resample: both families take the closed form
    (with a top 5, so that the ICLR 2018 categories, 7-21 fitted papers, have a cutoff)."""
    copy = warehouse_copy(built, tmp_path_factory.mktemp("iclr2018_closed"))
    copy.dbt_in_process(
        "run", "-s", "int_eb_posterior_draws", "paper_posterior_rankings", "int_validity_groups",
        "int_validity_group_papers", "int_validity_samples", "int_validity_bootstrap_metrics",
        "int_validity_group_scores", "int_validity_sample_auc", "int_validity_sample_spearman",
        "int_validity_sample_metrics", "ranking_validity",
        dbt_vars=json.dumps({"weight_set": "rating_confidence", "venue": VENUE, "outcomes_row_budget": 0,
                             "top_n": 5}))
    return copy


def test_closed_form_intervals_are_delongs_and_fishers(built: Project, closed_form: Project) -> None:
    resampled = validity(built).set_index(["category", "population", "outcome", "score"], drop=False)
    closed = validity(closed_form).set_index(["category", "population", "outcome", "score"], drop=False)
    assert sorted(closed.index.dropna().tolist()) == sorted(resampled.index.dropna().tolist())
    assert set(closed["interval_method"]) == {"delong", "fisher_z"}
    assert closed["replicates"].isna().all() and (resampled["interval_method"] == "bootstrap").all()
    # the values do not depend on the interval's method
    assert np.allclose(closed.loc[resampled.index, "value"], resampled["value"], atol=1e-12)
    assert rows(closed_form.db, "select count(*) from intermediate.int_validity_samples") == [(0,)]
    venue = closed[closed["category"].isna()].set_index(["population", "outcome", "score"])
    everything = papers_frame()
    decided = everything[everything["status"].isin(["Oral", "Poster", "Workshop", "Reject"])]
    cited = everything[everything["citations"].notna()]
    for score, low_high in {
        ("all_submissions", "accepted", "rating_mean"):
            delong_interval(decided["rating_mean"], decided["accepted"]),
        ("all_submissions", "accepted", "local_top_overall"):
            delong_interval(composite(everything)[decided.index], decided["accepted"]),
        ("all_submissions", "citations", "rating_mean"):
            fisher_interval(cited["rating_mean"], cited["citations"]),
        ("all_submissions", "citations", "confidence_mean"):
            fisher_interval(cited["confidence_mean"], cited["citations"]),
    }.items():
        row = venue.loc[score]
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(low_high, abs=1e-9), score
    # on the venue-wide rows (hundreds of papers) both methods describe the same uncertainty
    wide = resampled[resampled["category"].isna()]
    both = closed.loc[wide.index]
    assert (both["ci_low"] - wide["ci_low"]).abs().max() < 0.03
    assert (both["ci_high"] - wide["ci_high"]).abs().max() < 0.03


def test_closed_form_posterior_ranks_against_every_pair(built: Project, closed_form: Project) -> None:
    sql = """select category, paper_id, posterior_composite, posterior_composite_se,
                    posterior_expected_rank, posterior_p_top_n, posterior_rank_p05, posterior_rank_p95,
                    posterior_draws, posterior_method
             from marts.paper_posterior_rankings where prior_status = 'fitted'"""
    columns = ["category", "id", "m", "se", "expected", "p", "p05", "p95", "draws", "method"]
    closed = pd.DataFrame(rows(closed_form.db, sql), columns=columns).set_index("id")
    drawn = pd.DataFrame(rows(built.db, sql), columns=columns).set_index("id").loc[closed.index]
    numbers = ["m", "se", "expected", "p", "p05", "p95"]
    closed[numbers] = closed[numbers].astype(float)
    drawn[numbers] = drawn[numbers].astype(float)
    assert set(closed["method"]) == {"closed_form"} and closed["draws"].isna().all()
    assert set(drawn["method"]) == {"resample"} and (drawn["draws"] == 200).all()
    assert rows(closed_form.db, "select count(*) from intermediate.int_eb_posterior_draws") == [(0,)]
    assert np.allclose(closed[["m", "se"]], drawn[["m", "se"]], atol=1e-12)
    top_n = 5
    for _, group in closed.groupby("category"):
        m, se = group["m"].to_numpy(), group["se"].to_numpy()
        # expected rank: 1 + sum over the other papers of P(X_k > X_i), every pair
        spread = np.sqrt(se[:, None] ** 2 + se[None, :] ** 2)
        pairs = phi((m[None, :] - m[:, None]) / spread)
        exact = 1 + pairs.sum(axis=1) - 0.5
        assert np.abs(group["expected"].to_numpy() - exact).max() < 1e-3
        # P(top-N): Phi((m - t) / se), t where the expected count above it is N (bisection)
        if len(group) <= top_n:
            assert (group["p"] == 1.0).all()
            continue
        low, high = m.min() - 10, m.max() + 10
        for _ in range(200):
            t = (low + high) / 2
            low, high = (t, high) if phi((m - t) / se).sum() > top_n else (low, t)
        assert np.abs(group["p"].to_numpy() - phi((m - t) / se)).max() < 1e-6
        assert group["p"].sum() == pytest.approx(top_n, abs=1e-6)
        # the rank interval holds the point rank
        point = group["m"].rank(ascending=False, method="first")
        assert ((group["p05"] <= point) & (point <= group["p95"])).all()
    # the draws' expected ranks agree with the closed form up to their Monte Carlo error
    assert np.corrcoef(closed["expected"], drawn["expected"])[0, 1] > 0.99
