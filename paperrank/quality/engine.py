"""Run `TableSuite`s with great-expectations 1.x and write the Data Docs.

An ephemeral context keeps nothing between runs except the Data Docs folder, so the suites
in `paperrank.quality.suites` stay the single source of truth (no GX project directory to drift).
"""

from __future__ import annotations

from dataclasses import dataclass
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


def run_suites(suites: list[TableSuite], docs_dir: Path) -> list[SuiteOutcome]:
    """Validate every suite that has expectations and update the Data Docs site in `docs_dir`."""
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
        expectation_suite = context.suites.add(gx.ExpectationSuite(name=suite.name))
        for expectation in suite.expectations:
            expectation_suite.add_expectation(expectation)
        definition = context.validation_definitions.add(
            gx.ValidationDefinition(name=suite.name, data=batch, suite=expectation_suite))
        checkpoint = context.checkpoints.add(gx.Checkpoint(
            name=suite.name, validation_definitions=[definition], result_format=RESULT_FORMAT,
        ))
        run = checkpoint.run(batch_parameters={"dataframe": suite.frame})
        outcomes.append(SuiteOutcome(suite, next(iter(run.run_results.values()))))
    # one site build for all suites (a docs action per checkpoint rebuilt the site each time)
    context.build_data_docs(site_names=[DOCS_SITE])
    return outcomes
