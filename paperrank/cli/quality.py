"""`paperrank quality` (validate, seeds, test-failures) and `paperrank validate`.

Each command parses its options and calls `paperrank.quality`, imported inside the command:
great-expectations loads for `validate` only, never for the seed check that runs before dbt.
"""

from __future__ import annotations

from pathlib import Path

import click

from paperrank.cli.lazy import LazyGroup
from paperrank.cli.options import ENGINES
from paperrank.core import config
from paperrank.quality import DEFAULT_DOCS, STAGES
from paperrank.quality.seeds import DEFAULT_SEEDS

COMMANDS = {
    "validate": ("paperrank.cli.quality:validate", "run the great-expectations suites on the warehouse"),
    "seeds": ("paperrank.cli.quality:seeds", "check the seed CSVs (fields per line, declared types) before dbt"),
    "test-failures": ("paperrank.cli.quality:test_failures",
                      "show the rows behind the last dbt run's failed tests"),
}


@click.group(cls=LazyGroup, lazy_subcommands=COMMANDS)
def quality() -> None:
    """Check the warehouse against its data contracts, the seeds before dbt, dbt's failed tests."""


@click.command("validate")
@click.option("--stage", type=click.Choice(sorted(STAGES)), required=True,
              help="raw (before dbt build), marts (after it) or all")
@click.option("--taxonomy", default=config.DEFAULT_TAXONOMY,
              help="taxonomy the labels and marts use (checks labels and categories; "
                   f"default {config.DEFAULT_TAXONOMY})")
@click.option("--top-n", type=int, default=config.DEFAULT_TOP_N,
              help=f"papers each ranked category should have (smaller: warning; default {config.DEFAULT_TOP_N})")
@click.option("--profile", help="review-form profile for every venue (default: resolved per venue)")
@click.option("--engine", type=click.Choice(ENGINES), default=config.DEFAULT_ENGINE,
              help=f"engine whose marts the marts stage checks (default {config.DEFAULT_ENGINE})")
@click.option("--docs-dir", type=click.Path(path_type=Path), default=DEFAULT_DOCS,
              help=f"GX Data Docs folder, one site per stage (default {DEFAULT_DOCS})")
def validate(stage: str, taxonomy: str | None, top_n: int, profile: str | None, engine: str,
             docs_dir: Path) -> None:
    """`paperrank validate --stage raw|marts|all`: the quality gate around `dbt build`.

    The raw stage runs before dbt (ids, score scales, reviews per paper, primary areas), the marts
    stage after it (finite scores, one contiguous rank per paper, category sizes).  The warehouse
    is opened read-only and closed before any check runs, so dbt can start right after.  Exit 0
    when every check passes (warnings included), 1 when one fails, 2 when the run cannot start.
    """
    from paperrank.quality.validate import Checks
    from paperrank.quality.validate import validate as run_checks

    run_checks(Checks(stage, taxonomy, top_n, profile, engine, docs_dir))


@click.command("seeds")
@click.option("--seeds-dir", type=click.Path(path_type=Path), default=DEFAULT_SEEDS,
              help=f"folder of the seed CSVs and their YAML (default {DEFAULT_SEEDS})")
def seeds(seeds_dir: Path) -> None:
    """`paperrank quality seeds`: check the seed CSVs before `dbt seed` / `dbt build` loads them.

    dbt reads a seed with agate's CSV sniffer: a row with a missing or extra field, an unclosed
    quote or a value its declared type cannot hold ends in a long traceback that names neither
    the line nor the value.  This reads every seed the way a person edits it, as numbered lines,
    and prints one line per problem (`seeds/x.csv line 5: 3 fields, expected 4`), so the fix is
    obvious.  The declared types are the `column_types` of the seeds' YAML, the same ones dbt uses.
    Exit 0 when every seed is well formed, 1 when one is not.
    """
    from paperrank.quality.seeds import check_seeds

    check_seeds(seeds_dir)


@click.command("test-failures")
@click.option("--target-path", type=click.Path(path_type=Path), default=config.dbt_target_path(),
              help="dbt's target folder of the run to explain (default: DBT_TARGET_PATH or target/)")
def test_failures(target_path: Path) -> None:
    """`paperrank quality test-failures`: show the rows behind every dbt test that failed.

    dbt reports a failing data test as "Got 2 results, configured to fail if != 0" and leaves the
    reader to run the test's SQL.  This reads the last run's artifacts (run_results.json and
    manifest.json in dbt's target folder) and, for each failed or warned test, prints the
    offending rows: from the table dbt stored them in (`store_failures`, set for the seeds'
    tests) or else by running the test's compiled SQL on the warehouse, read-only.  For a test
    on a seed it also names the CSV lines the rows come from, e.g.
    `seeds/expert_selections.csv lines 2, 5`.  Run it after a failed `dbt build` (make build
    does); it exits 1 when the last run had a failing test, else 0.
    """
    from paperrank.quality.test_failures import explain_last_run

    explain_last_run(target_path)
