"""Run `TableSuite`s with great-expectations 1.x and write the Data Docs.

An ephemeral context keeps nothing between runs except the Data Docs folder, so the suites
in `paperrank.quality.suites` stay the single source of truth (no GX project directory to drift).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import great_expectations as gx
from great_expectations.core.expectation_validation_result import (
    ExpectationSuiteValidationResult,
)
from great_expectations.data_context.types.base import (
    DataContextConfig,
    InMemoryStoreBackendDefaults,
    ProgressBarsConfig,
)

from paperrank.quality.suites import TableSuite

DOCS_SITE = "paperrank_quality"
SAMPLE_ROWS = 5
RESULT_FORMAT = {"result_format": "SUMMARY", "partial_unexpected_count": SAMPLE_ROWS}


@dataclass
class SuiteOutcome:
    """One suite and what GX said about it."""

    suite: TableSuite
    result: ExpectationSuiteValidationResult


def run_suites(suites: list[TableSuite], docs_dir: Path,
               later: list[Callable[[], object]] | None = None) -> list[SuiteOutcome]:
    """Validate every suite that has expectations and update the Data Docs site in `docs_dir`;
    with `later`, the site's update is appended to it instead, for a caller that has a verdict
    to give first (the quality gates' worker: the site took a quarter of the marts' checks)."""
    docs_dir.mkdir(parents=True, exist_ok=True)
    context = gx.get_context(mode="ephemeral", project_config=DataContextConfig(
        store_backend_defaults=InMemoryStoreBackendDefaults(init_temp_docs_sites=False),
        analytics_enabled=False,
        progress_bars=ProgressBarsConfig(globally=False),
        data_docs_sites={DOCS_SITE: {
            "class_name": "SiteBuilder",
            "store_backend": {"class_name": "TupleFilesystemStoreBackend",
                              "base_directory": str(docs_dir.resolve())},
            "site_index_builder": {"class_name": "DefaultSiteIndexBuilder"},
        }},
    ))
    source = context.data_sources.add_pandas("warehouse")
    outcomes = []
    for suite in suites:
        if not suite.expectations:
            continue
        batch = source.add_dataframe_asset(suite.name).add_batch_definition_whole_dataframe("all")
        # the expectations given whole: added one by one to a suite of the context, each
        # addition would store the whole suite again
        expectation_suite = context.suites.add(
            gx.ExpectationSuite(name=suite.name, expectations=list(suite.expectations)))
        definition = context.validation_definitions.add(
            gx.ValidationDefinition(name=suite.name, data=batch, suite=expectation_suite))
        checkpoint = context.checkpoints.add(gx.Checkpoint(
            name=suite.name, validation_definitions=[definition], result_format=RESULT_FORMAT,
        ))
        run = checkpoint.run(batch_parameters={"dataframe": suite.frame})
        outcomes.append(SuiteOutcome(suite, next(iter(run.run_results.values()))))
    # one site build for all suites (a docs action per checkpoint rebuilt the site each time)
    build = partial(context.build_data_docs, site_names=[DOCS_SITE])
    if later is None:
        build()
    else:
        later.append(build)
    return outcomes
