"""The empirical-Bayes prior of few reviews (int_eb_priors_fitted, int_eb_posteriors,
paper_posterior_rankings) on a synthetic venue drawn from a known normal-normal model: the
fitted prior and the posterior means recover the truth; on accepted papers only it refuses and
says why instead of giving a number."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from project import Project, rows

pytestmark = pytest.mark.e2e  # builds the posterior models with dbt

PAPERS = 3000
MU, TAU2, SIGMA2 = 5.5, 0.64, 1.0  # rating: true means ~ N(MU, TAU2), reviews ~ N(mean, SIGMA2)
# Tolerances, about 3 standard errors of the moment estimators at this size:
# SE(tau^2) ~ sqrt(2 / N) var(xbar) ~ 0.025, SE(sigma^2) ~ sigma^2 sqrt(2 / df) ~ 0.016 (df ~ 7500).
TAU2_TOLERANCE, SIGMA2_TOLERANCE, MU_TOLERANCE = 0.08, 0.05, 0.05
# A posterior mean moves by (error of the shrinkage) * |xbar - mu| + (error of mu) * (1 - B): with
# the errors above (shrinkage off by up to ~0.03) that is up to ~0.1 for the most extreme papers
# (|xbar - mu| ~ 3) and ~0.02 for a typical one (|xbar - mu| ~ 0.8).
POSTERIOR_TOLERANCE, MEAN_POSTERIOR_TOLERANCE = 0.10, 0.02
VARS = json.dumps({"weight_set": "rating_confidence"})


def synthetic_venue(path: Path, accepted_only: bool) -> dict[str, tuple[float, list[float]]]:
    """A paperlists file of ICLR 2018's form; returns each paper's true mean and its ratings."""
    rng = np.random.default_rng(2018)
    truth = {}
    records = []
    for i in range(PAPERS):
        theta = rng.normal(MU, TAU2 ** 0.5)
        n = int(rng.integers(2, 6))
        ratings = np.clip(theta + rng.normal(0, SIGMA2 ** 0.5, n), 1, 10).round(6).tolist()
        confidence = np.clip(rng.normal(3.5, 0.8, n), 1, 5).round(6).tolist()
        status = "Poster" if accepted_only or rng.random() < 0.3 else "Reject"
        paper_id = f"S{i:05d}"
        truth[paper_id] = (theta, ratings)
        records.append({
            "id": paper_id, "title": f"LLM agents with tool use and function calling, study {i}",
            "abstract": "Autonomous LLM agents plan and use tools over multiple steps.",
            "status": status, "keywords": "agents;tool use",
            "rating": ";".join(map(str, ratings)), "confidence": ";".join(map(str, confidence)),
            "gs_citation": int(rng.integers(-1, 200)),
        })
    path.write_text(json.dumps(records), encoding="utf-8")
    return truth


def build(scratch: Path, accepted_only: bool) -> tuple[Project, dict]:
    project = Project(scratch / "warehouse.duckdb", scratch)
    truth = synthetic_venue(scratch / "venue.json", accepted_only)
    project.cli("ingest", "file", str(scratch / "venue.json"), "--venue", "ICLR 2018")
    project.cli("classify", "run", "--taxonomy", "icml2026", "--backend", "keywords")
    # in this process, on the session's one parse: the posterior models and what they read
    project.dbt_in_process("seed")
    project.dbt_in_process("run", "-s", "+paper_posterior_rankings", "+empirical_bayes_priors",
                           dbt_vars=VARS)
    return project, truth


@pytest.fixture(scope="module")
def all_submissions(tmp_path_factory: pytest.TempPathFactory) -> tuple[Project, dict]:
    return build(tmp_path_factory.mktemp("eb_all"), accepted_only=False)


@pytest.fixture(scope="module")
def accepted_only(tmp_path_factory: pytest.TempPathFactory) -> tuple[Project, dict]:
    return build(tmp_path_factory.mktemp("eb_accepted"), accepted_only=True)


def test_the_fitted_prior_recovers_the_truth(all_submissions) -> None:
    project, _ = all_submissions
    (fitted, mean, tau2, sigma2, reviewed), = rows(project.db, """
        select is_fitted, prior_mean, prior_variance, noise_variance, papers_reviewed
        from marts.empirical_bayes_priors where prior_scope = 'venue' and field = 'rating'""")
    assert fitted and reviewed == PAPERS
    assert abs(mean - MU) < MU_TOLERANCE
    assert abs(tau2 - TAU2) < TAU2_TOLERANCE
    assert abs(sigma2 - SIGMA2) < SIGMA2_TOLERANCE


def test_posterior_means_recover_the_true_posterior(all_submissions) -> None:
    project, truth = all_submissions
    found = dict(rows(project.db, """
        select paper_id, posterior_mean from intermediate.int_eb_posteriors where field = 'rating'"""))
    assert len(found) == PAPERS
    gaps, posterior_errors, plain_errors = [], [], []
    for paper_id, (theta, ratings) in truth.items():
        n, xbar = len(ratings), float(np.mean(ratings))
        shrink = TAU2 / (TAU2 + SIGMA2 / n)
        true_posterior = MU + shrink * (xbar - MU)  # the posterior under the true prior
        gaps.append(abs(found[paper_id] - true_posterior))
        posterior_errors.append((found[paper_id] - theta) ** 2)
        plain_errors.append((xbar - theta) ** 2)
    assert max(gaps) < POSTERIOR_TOLERANCE
    assert np.mean(gaps) < MEAN_POSTERIOR_TOLERANCE
    # shrinkage earns its keep: closer to the true means than the plain means are
    assert np.mean(posterior_errors) < 0.8 * np.mean(plain_errors)


def test_ranked_papers_get_a_posterior_rank(all_submissions) -> None:
    project, _ = all_submissions
    found = rows(project.db, """
        select count(*), count(posterior_expected_rank), min(prior_status), max(prior_status)
        from marts.paper_posterior_rankings""")
    (papers, ranked, low, high), = found
    assert papers > 0 and ranked == papers and low == high == "fitted"


def test_accepted_papers_only_refuse_naming_the_reason(accepted_only) -> None:
    project, _ = accepted_only
    priors = rows(project.db, """
        select is_fitted, prior_variance, fit_reason from marts.empirical_bayes_priors
        where prior_scope = 'venue'""")
    assert priors and all(not fitted and tau2 is None for fitted, tau2, _ in priors)
    assert all("accepted papers only" in reason and "truncated" in reason for *_, reason in priors)
    papers = rows(project.db, """
        select prior_status, posterior_composite, posterior_p_top_n, prior_reason
        from marts.paper_posterior_rankings""")
    assert papers
    for status, composite, p_top, reason in papers:
        assert (status, composite, p_top) == ("not_fitted", None, None)
        assert reason.startswith("accepted papers only: the warehouse holds 3000 reviewed papers")
